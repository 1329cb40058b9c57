"""A quote, a `{` or a `[` left open: YAML reads on past the line it opens on, often into
another question, and stops where something no longer fits. Its message then named that
line, that question and its indentation (author walk 5); this finds the line the slip is
on and says what to do there."""

from __future__ import annotations

import re

import yaml

CLOSE_QUOTE = {
    "'": "close the quote (a ' inside a '…' text is written twice)",
    '"': 'close the quote (a " inside a "…" text is written \\")',
}
_CLOSING = {"{": "}", "[": "]"}
# The line breaks YAML counts lines by (its marks' lines are counted so).
_BREAK = re.compile("\r\n|[\n\r\x85\u2028\u2029]")


def runaway(text: str, exc: yaml.MarkedYAMLError) -> tuple[int, str] | None:
    """(line from 0, what is wrong) when `exc` ends a quote or a flow collection opened
    on an earlier line; None otherwise."""
    opened, stopped = exc.context_mark, exc.problem_mark
    context = exc.context or ""
    if not opened or not stopped or opened.line >= stopped.line:
        return None
    if context.startswith("while scanning a quoted scalar"):
        if "end of stream" not in (exc.problem or ""):
            return None  # a quoted text may take several lines: the slip is elsewhere
        quote = text[opened.index : opened.index + 1]
        return opened.line, _unclosed_quote(quote, stopped, text)
    if not context.startswith("while parsing a flow"):
        return None
    bracket = text[opened.index : opened.index + 1]
    if bracket not in _CLOSING:
        return None
    slip = _first_slip(text, opened.index, stopped.index)
    if slip is None:
        return opened.line, (
            f"the '{bracket}' opened on this line is not closed: end it with "
            f"'{_CLOSING[bracket]}' on this line (YAML read on to line {stopped.line + 1} "
            "looking for it)"
        )
    index, quote = slip
    line = len(_BREAK.findall(text, 0, index))
    if quote:
        return line, _unclosed_quote(quote, stopped, text)
    return line, (
        f"' #' starts a YAML comment, so the rest of this line, with the "
        f"'{_CLOSING[bracket]}' that closes its '{bracket}', is not read: put the text in "
        "quotes"
    )


def _unclosed_quote(quote: str, stopped: yaml.Mark, text: str) -> str:
    where = (
        "the end of the file" if stopped.index >= len(text.rstrip()) else f"line {stopped.line + 1}"
    )
    return (
        f"the {quote} opened on this line is not closed on it, so YAML read on to {where}: "
        f"{CLOSE_QUOTE[quote]}"
    )


def _first_slip(text: str, start: int, stop: int) -> tuple[int, str] | None:
    """In a flow collection's text[start:stop], the first quote that runs past the line
    it opens on, (its index, the quote), or the first ' #' comment, (its index, "");
    None when neither is there."""
    quote, opened, last, index = "", 0, "", start
    while index < stop:
        char = text[index]
        if quote:
            if quote == '"' and char == "\\":
                index += 2
                continue
            if char == quote:
                if quote == "'" and text[index + 1 : index + 2] == "'":
                    index += 2
                    continue
                if _BREAK.search(text, opened, index):
                    return opened, quote
                quote = ""
        elif char in "'\"" and last in ("", "{", "[", ",", ":"):
            quote, opened = char, index  # a quoted text starts only where a value may
        elif char == "#" and text[index - 1 : index] in (" ", "\t", "\n", "\r"):
            return index, ""
        elif char not in " \t" and not _BREAK.match(char):
            last = char
        index += 1
    return (opened, quote) if quote else None
