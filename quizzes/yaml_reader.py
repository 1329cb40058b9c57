"""Reading one quiz file's YAML safely, keeping the line of every mapping key and list item."""

from __future__ import annotations

import os
import re
import signal
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import yaml

from portal.languages import LANGUAGE_CODES

from .documents import quoted, shortened
from .yaml_slips import runaway

MAX_FILE_BYTES = 1024 * 1024
PARSE_SECONDS = 5
# No field needs a number this large, and Python cannot print an int of more than 4,300
# digits: hex, octal and sexagesimal integers are built without that limit, so a huge one
# would only fail later, in a message or a hash.
MAX_INT_BITS = 3_000
# PyYAML's own messages are short but may quote a tag of any length: they are cut here.
YAML_REASON_CHARS = 200


class LineDict(dict):
    """A mapping that remembers its own line and the line of each key."""

    line = 0
    key_lines: dict[Any, int]

    def line_of(self, key: Any) -> int:
        return self.key_lines.get(key, self.line)


class LineList(list):
    line = 0
    item_lines: list[int]

    def line_of(self, index: int) -> int:
        return self.item_lines[index] if index < len(self.item_lines) else self.line


class Refused(yaml.constructor.ConstructorError):
    """Readable YAML that a quiz file may still not contain; its message stands alone."""


# A node's properties: an anchor, maybe after a tag (`!!str &name text`).
_ANCHOR = re.compile(r"(?:!\S*\s+)?&")

# libyaml's parser is some twenty times faster than PyYAML's own, and caps nesting depth.
_BaseLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _QuizLoader(_BaseLoader):
    """Safe loading, plus: no anchors or aliases (nothing can expand), duplicate keys refused,
    a NUL in a text refused, numbers bounded, and line numbers kept on every mapping and
    sequence. libyaml composes the nodes; one recursive pass here builds the values,
    which is about twice as fast as PyYAML's generic constructor with its bookkeeping."""

    def __init__(self, stream):
        super().__init__(stream)
        # As YAML counts lines: \n, \r\n, a lone \r, NEL, LS and PS each end one.
        self._lines = stream.splitlines() if isinstance(stream, str) else None
        # Only a file with an ampersand can hold an anchor: the others skip the check.
        self._anchors = self._lines is not None and "&" in stream

    def construct_document(self, node):
        self._seen: set[int] = set()
        return self._build(node)

    def _check_comment_after(self, key, node) -> None:
        """Refuse a plain text cut by a comment one space after it: `en: The #1 cause`
        is the text "The" in YAML, and nothing said so (author walk 3 of round 3). A
        comment set apart by two spaces or more, as yamllint asks, is the author's."""
        if self._lines is None or key not in _TEXT_KEYS or node.tag != _STR or node.style:
            return
        rest = self._lines[node.end_mark.line][node.end_mark.column :]
        if rest[:2] in (" #", "\t#"):
            raise Refused(
                None,
                None,
                f"the text of {quoted(key)} ends where ' #' starts a YAML comment, so "
                f"{quoted(rest[1:].rstrip())} is left out of it: put the text in quotes to "
                "keep it, or two spaces before a comment",
                node.start_mark,
            )

    def _build(self, node):
        # The composer resolves an alias to the node it names, so meeting a node a
        # second time means an alias. An anchor alone expands nothing, but `en: &mut T`
        # is the text "T": a node's start is its properties, so one starting with an
        # anchor (after a tag, maybe) is refused too, as the format says.
        if id(node) in self._seen or (
            self._anchors
            and _ANCHOR.match(self._lines[node.start_mark.line], node.start_mark.column)
        ):
            raise yaml.constructor.ConstructorError(
                None, None, "anchors and aliases are not allowed in quiz files", node.start_mark
            )
        self._seen.add(id(node))
        tag = node.tag
        if tag == _STR:
            return _checked_str(node)
        if tag == _MAP:
            return self._build_mapping(node)
        if tag == _SEQ:
            items = LineList(self._build(item) for item in node.value)
            items.line = node.start_mark.line + 1
            items.item_lines = [item.start_mark.line + 1 for item in node.value]
            return items
        if tag == _INT:
            return _checked_int(self, node)
        if tag in _SCALARS:
            return _checked_scalar(self, node)
        # Python objects, sets, ordered maps, unknown tags: not in a quiz file.
        return self.construct_undefined(node)

    def _build_mapping(self, node):
        if any(key.tag == _MERGE for key, _ in node.value):
            raise yaml.constructor.ConstructorError(
                None, None, "merge keys (<<) are not allowed in quiz files", node.start_mark
            )
        mapping = LineDict()
        mapping.line = node.start_mark.line + 1
        mapping.key_lines = key_lines = {}
        for key_node, value_node in node.value:
            key = self._build(key_node)
            try:
                duplicate = key in mapping
            except TypeError:
                raise yaml.constructor.ConstructorError(
                    None, None, "a mapping key must be a plain value", key_node.start_mark
                ) from None
            if duplicate:
                raise yaml.constructor.ConstructorError(
                    None, None, f"duplicate key {quoted(key)}", key_node.start_mark
                )
            key_lines[key] = key_node.start_mark.line + 1
            self._check_comment_after(key, value_node)
            mapping[key] = self._build(value_node)
        return mapping


_STR, _MAP, _SEQ, _INT = (f"tag:yaml.org,2002:{name}" for name in ("str", "map", "seq", "int"))
_MERGE = "tag:yaml.org,2002:merge"
# The fields whose value is a text, as a plain string or in a mapping of languages.
_TEXT_KEYS = frozenset({*LANGUAGE_CODES, "title", "prompt", "text", "explanation", "unit"})
_SCALARS = {
    f"tag:yaml.org,2002:{name}" for name in ("null", "bool", "float", "binary", "timestamp")
}


def _checked_int(loader: _QuizLoader, node):
    try:
        value = yaml.constructor.SafeConstructor.construct_yaml_int(loader, node)
    except ValueError:
        value = None  # a decimal of more than 4,300 digits: Python refuses to read it
    if value is None or value.bit_length() > MAX_INT_BITS:
        raise yaml.constructor.ConstructorError(
            None, None, "a number is too large", node.start_mark
        )
    # YAML 1.1 reads "phase: 010" as 8 (the error that followed named a phase 8 no one
    # wrote, red team 21) and "1:30" as 90, a ratio or a time (red team 26).
    written, read = node.value, f"{shortened(node.value)} is read by YAML as"
    if ":" in written:
        reason = f"{read} a base-60 number ({value}): write {value}, or put it in quotes"
        raise Refused(None, None, reason, node.start_mark)
    if re.match(r"[-+]?0[0-7_]+\Z", written):
        decimal = written.lstrip("+-").lstrip("0_").replace("_", "") or "0"
        decimal = shortened(("-" if written.startswith("-") else "") + decimal)
        reason = f"{read} an octal number ({value}): write {decimal}, without the leading zero"
        raise Refused(None, None, reason, node.start_mark)
    return value


def _checked_scalar(loader: _QuizLoader, node):
    """A null, boolean, float, binary or date, as YAML reads it. A value its reader
    fails on was a traceback, no line named (red team 26): a plain `2001-02-30`, which
    YAML takes for a date that does not exist, `!!float abc`, `!!bool maybe`."""
    try:
        return loader.yaml_constructors[node.tag](loader, node)
    except (ValueError, KeyError, AttributeError, TypeError, OverflowError):
        kind, mark = node.tag.rsplit(":", 1)[-1], node.start_mark
        tagged = (loader._lines or [""] * (mark.line + 1))[mark.line][mark.column :][:1] == "!"
        reason = f"{quoted(node.value)} cannot be read as the YAML tag !!{kind} says"
        if kind == "timestamp" and not tagged:  # the mark is the tag's, when written
            reason = (
                f"{quoted(node.value)} is read by YAML as a date, and there is no such "
                "date: put it in quotes to keep it as text"
            )
        raise Refused(None, None, reason, mark) from None


# Control characters a double-quoted escape can write ("\e", "\x9b", "\N"): a box on a
# page, and an escape sequence in the terminal that shows a mirror or the CSV export.
# The tab and the line ends are text.
_CONTROL = re.compile(r"[\x01-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def _checked_str(node):
    value = node.value
    # A double-quoted "\0" is valid YAML; PostgreSQL cannot store it in a text column.
    if "\x00" in value:
        raise Refused(
            None,
            None,
            "a text contains a NUL character (\\0), which is not allowed",
            node.start_mark,
        )
    if control := _CONTROL.search(value):
        raise Refused(
            None,
            None,
            f"a text contains a control character (U+{ord(control[0]):04X}), which is not allowed",
            node.start_mark,
        )
    return value


@contextmanager
def time_limit(seconds: float):
    """Raise TimeoutError if the block runs longer than `seconds`. Only where a signal can
    be delivered (the main thread of a Unix process, as in management commands); the
    1 MiB size limit and the ban on aliases already keep parsing linear and short."""
    usable = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    if not usable:
        yield
        return

    def expire(signum, frame):
        raise TimeoutError

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def parse_yaml(text: str) -> Any:
    """Parse one YAML document safely; raises yaml.YAMLError, RecursionError or
    TimeoutError."""
    with time_limit(PARSE_SECONDS):
        return yaml.load(text, Loader=_QuizLoader)  # noqa: S506 - a SafeLoader subclass


def read_bytes(path: Path) -> bytes:
    """The file's bytes, refusing to follow a symbolic link (raises OSError), so nothing
    outside the quiz folder is read even if a link appears after the folder was listed."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)
    descriptor = os.open(path, flags)
    with os.fdopen(descriptor, "rb") as handle:
        if os.fstat(handle.fileno()).st_size > MAX_FILE_BYTES:
            raise FileTooLarge(os.fstat(handle.fileno()).st_size)
        return handle.read(MAX_FILE_BYTES + 1)


class FileTooLarge(Exception):
    def __init__(self, size: int):
        self.size = size
        super().__init__(size)


def _line(text: str, line: int) -> str | None:
    """Line `line` (from 0) of `text` as YAML counts lines (\n, \r\n, a lone \r, NEL, LS
    and PS each end one); None past the end."""
    lines = text.splitlines()
    return lines[line] if 0 <= line < len(lines) else None


def _tab_at(text: str, line: int, column: int) -> bool:
    """Whether the character at (line, column), both from 0, or the white space that
    opens its line, holds a tab."""
    here = _line(text, line)
    if here is None:
        return False
    indent = here[: len(here) - len(here.lstrip())]
    return here[column : column + 1] == "\t" or "\t" in indent


# A text field whose value follows it on its line, in a block or a flow mapping.
_TEXT_FIELD = re.compile(
    rf"(?:^|[\s{{,])({'|'.join(LANGUAGE_CODES)}|title|prompt|text|explanation|unit)\s*:[ \t]+"
)
# What a plain (unquoted) YAML scalar cannot start with; a Markdown text often does.
_PLAIN_STARTS = tuple("*`&!%@[{")
_INDENT_REASONS = (
    "mapping values are not allowed",
    "did not find expected",
    "expected <block end>",
)


def _syntax_hint(text: str, line: int, reason: str) -> str:
    """What to do about a syntax error at `line` (from 0): PyYAML's words name a token,
    not the Markdown that made it ("while scanning an alias" for a text starting with
    `*emphasis*`, "mapping values are not allowed" for "Note: …"), nor an indentation
    slip (author walk 3 of round 3). "" when neither fits."""
    here = _line(text, line) or ""
    for match in _TEXT_FIELD.finditer(here):
        value = here[match.end() :]
        if match[1] not in LANGUAGE_CODES and value.startswith(("{", "[")):
            continue  # a mapping of languages, or a list: not a text
        if "{" in here[: match.start() + 1]:
            value = re.split(r"[,}]", value, maxsplit=1)[0]  # a flow mapping's value
        if value.startswith(_PLAIN_STARTS) or ": " in value or " #" in value:
            return (
                " (a text starting with * ` [ { & ! % @, or holding ': ' or ' #', goes in "
                "quotes, en: '…' with a ' inside written twice, or in a block, en: | with "
                "the text indented on the lines below)"
            )
    if any(words in reason for words in _INDENT_REASONS):
        return " (check the indentation of this line and of the lines above it)"
    return ""


_ITEM = re.compile(r"([ \t]*)-[ \t]")
_ID_ITEM = re.compile(r"[ \t]*-[ \t]+id[ \t]*:")
_TOP_FIELD = re.compile(r"[^\s#-]")
_ID_VALUE = re.compile(r"[ \t]*(['\"]?)([a-z0-9][a-z0-9-]{0,63})\1[ \t]*(?:#.*)?\Z")


def question_near(raw: bytes, line: int) -> str | None:
    """The id of the question whose lines hold `line` (from 1) of a file YAML could not
    read, so the message names the question as every other one does: the list item of
    `questions:` the line is in, and its `id:` wherever it stands in the item. None
    before the first question, or when the item has no id the reader would take."""
    lines = raw.decode("utf-8", errors="replace").splitlines()  # as YAML counts them
    here = lines[line - 1] if 0 < line <= len(lines) else ""
    if (own := _ID_ITEM.match(here)) and (value := _ID_VALUE.match(here, own.end())):
        return value[2]  # the item's first line, however indented
    start = next((n for n, text in enumerate(lines) if text.startswith("questions:")), None)
    if start is None or start >= line - 1:
        return None
    # The list ends at the next top-level field.
    stop = next((n for n in range(start + 1, len(lines)) if _TOP_FIELD.match(lines[n])), len(lines))
    if line - 1 >= stop:
        return None
    items = [(n, m[1]) for n in range(start + 1, stop) if (m := _ITEM.match(lines[n]))]
    if not items:
        return None
    indent = items[0][1]  # the questions' own items, not an option's or a mention's
    firsts = [n for n, item_indent in items if item_indent == indent]
    first = max((n for n in firsts if n <= line - 1), default=None)
    if first is None:
        return None
    end = min((n for n in firsts if n > first), default=stop)
    field = re.compile(rf"(?:{re.escape(indent)}-|{re.escape(indent)}[ \t])[ \t]*id[ \t]*:")
    for text in lines[first:end]:
        if (found := field.match(text)) and text[: found.end()].strip(" \t-") == "id:":
            value = _ID_VALUE.match(text, found.end())
            return value[2] if value else None
    return None


def read_document(raw: bytes) -> tuple[Any, int, str | None]:
    """Decode and parse `raw`: (data, line, None), or (None, line, what is wrong)."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        byte = raw[exc.start : exc.start + 1].hex().upper()
        message = f"the file is not valid UTF-8 text (byte 0x{byte}): save it as UTF-8"
        return None, raw[: exc.start].count(b"\n") + 1, message
    try:
        return parse_yaml(text), 1, None
    except Refused as exc:
        return None, exc.problem_mark.line + 1, exc.problem
    except yaml.MarkedYAMLError as exc:
        if slip := runaway(text, exc):
            return None, slip[0] + 1, f"not valid YAML: {slip[1]}"
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else 1
        reason = ", ".join(filter(None, [exc.context, exc.problem])) or "not valid YAML"
        if "could not determine a constructor" in reason:
            tag = shortened(reason.split("tag ", 1)[-1])
            reason = f"YAML tags that construct objects are not allowed ({tag})"
        else:
            # PyYAML quotes what it found, such as a tag handle of any length.
            reason = shortened(reason, YAML_REASON_CHARS)
        if mark and _tab_at(text, mark.line, mark.column):
            # libyaml's words name no tab ("found character that cannot start any
            # token"), and an editor may show one as spaces (author walk 1 of round 2).
            reason += " (a tab: indent with spaces)"
        elif mark:
            reason += _syntax_hint(text, mark.line, reason)
        return None, line, f"not valid YAML: {reason}"
    except yaml.YAMLError as exc:
        return None, 1, f"not valid YAML: {shortened(str(exc), YAML_REASON_CHARS)}"
    except RecursionError:
        return None, 1, "not valid YAML: nested too deeply"
    except TimeoutError:
        return None, 1, f"reading the file took longer than {PARSE_SECONDS} s"
