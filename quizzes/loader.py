"""Reading and validating quiz YAML files into plain documents (no database).

The contract is docs/quiz-format.md. Every problem in a whole set of files is collected,
each with its file, line and question id, so an author fixes them all in one pass.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import re
import signal
import threading
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

FORMAT_VERSION = 1
MAX_FILE_BYTES = 1024 * 1024
LANGUAGES = ("en", "es")
KINDS = ("single", "multi", "free")
FILE_NAME = re.compile(r"^phase-(?P<number>\d{2,})-(?P<slug>[a-z0-9]+(?:-[a-z0-9]+)*)\.yaml$")
SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
QUESTION_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
OPTION_KEY = re.compile(r"^[A-Z]$")
MIN_OPTIONS, MAX_OPTIONS = 2, 8
MAX_PHASE = 9999

FILE_FIELDS = {"format", "phase", "slug", "title", "questions"}
FILE_REQUIRED = FILE_FIELDS
QUESTION_FIELDS = {
    "id",
    "kind",
    "title",
    "prompt",
    "options",
    "expected",
    "pass_mentions",
    "explanation",
}
QUESTION_REQUIRED = {"id", "kind", "title", "explanation"}
OPTION_FIELDS = {"key", "text", "correct"}


# --- documents ----------------------------------------------------------------------


@dataclass(frozen=True)
class Problem:
    """One thing wrong with the input, located as precisely as the YAML allows."""

    path: str
    line: int
    question: str | None
    message: str

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}"
        if self.question:
            return f"{where}: {self.question}: {self.message}"
        return f"{where}: {self.message}"


@dataclass(frozen=True)
class OptionDoc:
    key: str
    text: dict[str, str]
    correct: bool


@dataclass(frozen=True)
class QuestionDoc:
    code: str
    kind: str
    title: dict[str, str]
    prompt: dict[str, str]
    explanation: dict[str, str]
    options: tuple[OptionDoc, ...] = ()
    expected: tuple[tuple[str, ...], ...] = ()
    pass_mentions: int | None = None
    position: int = 0
    path: str = ""
    line: int = 0

    def content(self) -> dict[str, Any]:
        """What a learner sees and is graded against; its hash decides revisions.
        Position and phase are not content: moving a question makes no revision."""
        return {
            "kind": self.kind,
            "title": self.title,
            "prompt": self.prompt,
            "explanation": self.explanation,
            "options": [{"key": o.key, "text": o.text, "correct": o.correct} for o in self.options],
            "expected": [list(m) for m in self.expected],
            "pass_mentions": self.pass_mentions,
        }

    @property
    def content_hash(self) -> str:
        canonical = json.dumps(self.content(), sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(canonical.encode()).hexdigest()

    @property
    def correct_keys(self) -> list[str]:
        return [o.key for o in self.options if o.correct]


@dataclass(frozen=True)
class PhaseDoc:
    path: str
    number: int
    slug: str
    title: dict[str, str]
    questions: tuple[QuestionDoc, ...]

    @property
    def file_name(self) -> str:
        return Path(self.path).name


@dataclass
class QuizSet:
    phases: list[PhaseDoc] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    @property
    def questions(self) -> list[QuestionDoc]:
        return [q for phase in self.phases for q in phase.questions]


# --- YAML with line numbers ------------------------------------------------------------


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


# libyaml's parser is some twenty times faster than PyYAML's own, and caps nesting depth.
_BaseLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _QuizLoader(_BaseLoader):
    """Safe loading, plus: no aliases (nothing can expand), duplicate keys refused,
    and line numbers kept on every mapping and sequence."""

    def construct_object(self, node, deep=False):
        # The composer resolves an alias to the node it names, so meeting a node a
        # second time means an alias.
        if node in self.constructed_objects or node in self.recursive_objects:
            raise yaml.constructor.ConstructorError(
                None, None, "anchors and aliases are not allowed in quiz files", node.start_mark
            )
        return super().construct_object(node, deep=deep)

    def construct_mapping(self, node, deep=False):
        if not isinstance(node, yaml.MappingNode):
            raise yaml.constructor.ConstructorError(
                None, None, "expected a mapping", node.start_mark
            )
        mapping = LineDict()
        mapping.line = node.start_mark.line + 1
        mapping.key_lines = {}
        for key_node, value_node in node.value:
            key = self.construct_object(key_node, deep=deep)
            try:
                duplicate = key in mapping
            except TypeError:
                raise yaml.constructor.ConstructorError(
                    None, None, "a mapping key must be a plain value", key_node.start_mark
                ) from None
            if duplicate:
                raise yaml.constructor.ConstructorError(
                    None, None, f"duplicate key {key!r}", key_node.start_mark
                )
            mapping.key_lines[key] = key_node.start_mark.line + 1
            mapping[key] = self.construct_object(value_node, deep=deep)
        return mapping


def _construct_int(loader: _QuizLoader, node):
    try:
        return yaml.constructor.SafeConstructor.construct_yaml_int(loader, node)
    except ValueError:
        # Python refuses to read integers of more than 4,300 digits.
        raise yaml.constructor.ConstructorError(
            None, None, "a number is too large", node.start_mark
        ) from None


def _construct_map(loader: _QuizLoader, node):
    data = LineDict()
    data.line = node.start_mark.line + 1
    data.key_lines = {}
    yield data
    built = loader.construct_mapping(node)
    data.update(built)
    data.key_lines = built.key_lines


def _construct_seq(loader: _QuizLoader, node):
    data = LineList()
    data.line = node.start_mark.line + 1
    data.item_lines = [item.start_mark.line + 1 for item in node.value]
    yield data
    data.extend(loader.construct_sequence(node))


_QuizLoader.add_constructor("tag:yaml.org,2002:map", _construct_map)
_QuizLoader.add_constructor("tag:yaml.org,2002:seq", _construct_seq)
_QuizLoader.add_constructor("tag:yaml.org,2002:int", _construct_int)


PARSE_SECONDS = 5


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


# --- validation ------------------------------------------------------------------------


def _type_name(value: Any) -> str:
    if value is None:
        return "nothing"
    return {
        bool: "true/false",
        int: "a number",
        float: "a number",
        str: "text",
        LineDict: "a mapping",
        LineList: "a list",
    }.get(type(value), type(value).__name__)


class _Checker:
    """Validates one parsed file, appending to a shared problem list."""

    def __init__(self, path: str, problems: list[Problem], ids: list[tuple[str, str, int]]):
        self.path = path
        self.problems = problems
        # Every well-formed id seen, valid question or not, so duplicates are reported
        # even where one of the two copies has other problems.
        self.ids = ids

    def error(self, line: int, message: str, question: str | None = None) -> None:
        self.problems.append(Problem(self.path, line, question, message))

    def fields(self, mapping: LineDict, allowed: set[str], required: set[str], qid=None):
        ok = True
        for key in mapping:
            if key not in allowed:
                hint = difflib.get_close_matches(str(key), sorted(allowed), n=1)
                suffix = f"; did you mean '{hint[0]}'?" if hint else ""
                known = ", ".join(sorted(allowed))
                self.error(
                    mapping.line_of(key),
                    f"unknown field '{key}'{suffix} (known fields: {known})",
                    qid,
                )
                ok = False
        for key in sorted(required - set(mapping)):
            self.error(mapping.line, f"missing required field '{key}'", qid)
            ok = False
        return ok

    def text(self, value: Any, line: int, name: str, qid=None) -> dict[str, str] | None:
        """A localized text: a plain string (English) or a mapping of language to string."""
        if isinstance(value, str):
            if not value.strip():
                self.error(line, f"'{name}' is empty", qid)
                return None
            return {"en": value.strip()}
        if not isinstance(value, LineDict):
            self.error(line, f"'{name}' must be text or a mapping of en/es to text", qid)
            return None
        result: dict[str, str] = {}
        for language, text in value.items():
            where = value.line_of(language)
            if language not in LANGUAGES:
                self.error(where, f"'{name}' has unknown language '{language}' (use en, es)", qid)
            elif not isinstance(text, str):
                hint = " (put it in quotes)" if isinstance(text, bool | int | float) else ""
                self.error(
                    where, f"'{name}.{language}' must be text, not {_type_name(text)}{hint}", qid
                )
            elif not text.strip():
                self.error(where, f"'{name}.{language}' is empty", qid)
            else:
                result[language] = text.strip()
        if "en" not in value:
            self.error(line, f"'{name}' needs an English ('en') text", qid)
            return None
        return result if "en" in result else None

    def phase(self, data: Any, file_name: str) -> PhaseDoc | None:
        if data is None:
            self.error(1, "the file is empty")
            return None
        if not isinstance(data, LineDict):
            self.error(1, f"the file must be a mapping of fields, not {_type_name(data)}")
            return None
        self.fields(data, FILE_FIELDS, FILE_REQUIRED)

        fmt = data.get("format")
        if "format" in data and (type(fmt) is not int or fmt != FORMAT_VERSION):
            self.error(
                data.line_of("format"),
                f"unknown format {fmt!r}; this portal reads format {FORMAT_VERSION}",
            )
            return None  # the rest of a file in an unknown format is not ours to judge

        name = FILE_NAME.match(file_name)
        if not name:
            self.error(1, "the file name must look like phase-NN-slug.yaml (NN two digits or more)")

        number = data.get("phase")
        if "phase" in data:
            if type(number) is not int or not 0 <= number <= MAX_PHASE:
                self.error(
                    data.line_of("phase"), f"'phase' must be a whole number from 0 to {MAX_PHASE}"
                )
                number = None
            elif name and int(name["number"]) != number:
                self.error(
                    data.line_of("phase"),
                    f"phase {number} disagrees with the file name ({name['number']})",
                )
        slug = data.get("slug")
        if "slug" in data:
            if not isinstance(slug, str) or not SLUG.match(slug):
                self.error(
                    data.line_of("slug"), "'slug' must be lowercase letters, digits and dashes"
                )
                slug = None
            elif name and name["slug"] != slug:
                self.error(
                    data.line_of("slug"),
                    f"slug '{slug}' disagrees with the file name ('{name['slug']}')",
                )
        title = None
        if "title" in data:
            title = self.text(data["title"], data.line_of("title"), "title")

        questions: list[QuestionDoc] = []
        raw_questions = data.get("questions")
        if "questions" in data:
            if not isinstance(raw_questions, LineList):
                self.error(data.line_of("questions"), "'questions' must be a list")
            elif not raw_questions:
                self.error(data.line_of("questions"), "'questions' is empty")
            else:
                for index, raw in enumerate(raw_questions):
                    question = self.question(raw, raw_questions.line_of(index), index + 1)
                    if question:
                        questions.append(question)

        if number is None or slug is None or title is None:
            return None
        return PhaseDoc(self.path, number, slug, title, tuple(questions))

    def question(self, raw: Any, line: int, position: int) -> QuestionDoc | None:
        if not isinstance(raw, LineDict):
            self.error(line, f"question {position} must be a mapping, not {_type_name(raw)}")
            return None
        qid = raw.get("id")
        if "id" in raw and (not isinstance(qid, str) or not QUESTION_ID.match(qid)):
            self.error(
                raw.line_of("id"),
                "'id' must be text of letters, digits, dashes (such as q-19-01)",
            )
            qid = None
        if qid:
            self.ids.append((qid, self.path, raw.line))
        label = qid or f"question {position}"
        ok = self.fields(raw, QUESTION_FIELDS, QUESTION_REQUIRED, label)

        kind = raw.get("kind")
        if "kind" in raw and kind not in KINDS:
            self.error(
                raw.line_of("kind"),
                f"'kind' must be one of single, multi, free, not {kind!r}",
                label,
            )
            kind = None

        title = (
            self.text(raw["title"], raw.line_of("title"), "title", label)
            if "title" in raw
            else None
        )
        explanation = (
            self.text(raw["explanation"], raw.line_of("explanation"), "explanation", label)
            if "explanation" in raw
            else None
        )
        prompt: dict[str, str] | None = {}
        if "prompt" in raw:
            prompt = self.text(raw["prompt"], raw.line_of("prompt"), "prompt", label)

        options: tuple[OptionDoc, ...] = ()
        expected: tuple[tuple[str, ...], ...] = ()
        pass_mentions = None
        if kind in ("single", "multi"):
            for stray in ("expected", "pass_mentions"):
                if stray in raw:
                    self.error(raw.line_of(stray), f"a {kind} question has no '{stray}'", label)
                    ok = False
            if "options" not in raw:
                self.error(raw.line, f"a {kind} question needs 'options'", label)
                ok = False
            else:
                options = self.options(raw["options"], raw.line_of("options"), kind, label) or ()
                ok = ok and bool(options)
        elif kind == "free":
            if "options" in raw:
                self.error(raw.line_of("options"), "a free question has no 'options'", label)
                ok = False
            if "expected" not in raw:
                self.error(raw.line, "a free question needs 'expected' mentions", label)
                ok = False
            else:
                expected = self.expected(raw["expected"], raw.line_of("expected"), label) or ()
                ok = ok and bool(expected)
            if "pass_mentions" in raw:
                pass_mentions = raw["pass_mentions"]
                if type(pass_mentions) is not int or not 1 <= pass_mentions <= max(
                    len(expected), 1
                ):
                    self.error(
                        raw.line_of("pass_mentions"),
                        f"'pass_mentions' must be a whole number from 1 to the number of "
                        f"expected mentions ({len(expected)})",
                        label,
                    )
                    ok = False

        if not (ok and qid and kind and title and explanation and prompt is not None):
            return None
        return QuestionDoc(
            code=qid,
            kind=kind,
            title=title,
            prompt=prompt,
            explanation=explanation,
            options=options,
            expected=expected,
            pass_mentions=pass_mentions,
            position=position,
            path=self.path,
            line=raw.line,
        )

    def options(self, raw: Any, line: int, kind: str, qid: str) -> tuple[OptionDoc, ...] | None:
        if not isinstance(raw, LineList):
            self.error(line, "'options' must be a list", qid)
            return None
        if not MIN_OPTIONS <= len(raw) <= MAX_OPTIONS:
            self.error(
                line, f"a question has {MIN_OPTIONS} to {MAX_OPTIONS} options, not {len(raw)}", qid
            )
        result: list[OptionDoc] = []
        seen: dict[str, int] = {}
        valid = True
        for index, option in enumerate(raw):
            where = raw.line_of(index)
            if not isinstance(option, LineDict):
                self.error(where, f"option {index + 1} must be a mapping with key and text", qid)
                valid = False
                continue
            valid &= self.fields(option, OPTION_FIELDS, {"key", "text"}, qid)
            key = option.get("key")
            if "key" in option:
                if not isinstance(key, str) or not OPTION_KEY.match(key):
                    self.error(
                        option.line_of("key"),
                        f"option key must be one capital letter, not {key!r}",
                        qid,
                    )
                    valid = False
                elif key in seen:
                    self.error(
                        option.line_of("key"),
                        f"option key '{key}' is repeated (first on line {seen[key]})",
                        qid,
                    )
                    valid = False
                else:
                    seen[key] = option.line_of("key")
            correct = option.get("correct", False)
            if not isinstance(correct, bool):
                self.error(option.line_of("correct"), "'correct' must be true or false", qid)
                valid = False
            text = (
                self.text(option["text"], option.line_of("text"), "text", qid)
                if "text" in option
                else None
            )
            if text is None or not isinstance(key, str):
                valid = False
                continue
            result.append(OptionDoc(key=key, text=text, correct=correct is True))
        correct_count = sum(o.correct for o in result)
        if valid and kind == "single" and correct_count != 1:
            self.error(
                line,
                f"a single question needs exactly one correct option, not {correct_count}",
                qid,
            )
            valid = False
        if valid and kind == "multi" and correct_count < 1:
            self.error(line, "a multi question needs at least one correct option", qid)
            valid = False
        if not MIN_OPTIONS <= len(raw) <= MAX_OPTIONS:
            valid = False
        return tuple(result) if valid else None

    def expected(self, raw: Any, line: int, qid: str) -> tuple[tuple[str, ...], ...] | None:
        if not isinstance(raw, LineList) or not raw:
            self.error(line, "'expected' must be a list of at least one mention", qid)
            return None
        mentions: list[tuple[str, ...]] = []
        valid = True
        for index, mention in enumerate(raw):
            where = raw.line_of(index)
            alternatives = [mention] if isinstance(mention, str) else mention
            if not isinstance(alternatives, list) or not alternatives:
                self.error(
                    where, f"mention {index + 1} must be text or a list of alternatives", qid
                )
                valid = False
                continue
            cleaned = []
            for alternative in alternatives:
                if not isinstance(alternative, str | int | float) or isinstance(alternative, bool):
                    self.error(
                        where, f"mention {index + 1} has an alternative that is not text", qid
                    )
                    valid = False
                elif not str(alternative).strip():
                    self.error(where, f"mention {index + 1} has an empty alternative", qid)
                    valid = False
                else:
                    cleaned.append(str(alternative).strip())
            mentions.append(tuple(cleaned))
        return tuple(mentions) if valid else None


# --- files and sets -------------------------------------------------------------------


def collect_files(paths: list[Path]) -> tuple[list[Path], list[Problem]]:
    """Expand folders to their `*.yaml` files, in a stable order."""
    files: list[Path] = []
    problems: list[Problem] = []
    for path in paths:
        if path.is_dir():
            files.extend(sorted(p for p in path.glob("*.yaml") if p.is_file()))
        elif path.is_file():
            files.append(path)
        else:
            problems.append(Problem(str(path), 0, None, "no such file or folder"))
    unique = list(dict.fromkeys(p.resolve() for p in files))
    return [Path(p) for p in unique], problems


def display_path(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def load_file(
    path: Path, problems: list[Problem], ids: list[tuple[str, str, int]]
) -> PhaseDoc | None:
    shown = display_path(path)
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            problems.append(Problem(shown, 1, None, f"file is {size} bytes; the limit is 1 MiB"))
            return None
        raw = path.read_bytes()
    except OSError as exc:
        problems.append(Problem(shown, 0, None, f"cannot read file: {exc.strerror}"))
        return None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        problems.append(Problem(shown, line, None, "the file is not valid UTF-8 text"))
        return None
    try:
        data = parse_yaml(text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else 1
        reason = ", ".join(filter(None, [exc.context, exc.problem])) or "not valid YAML"
        if "could not determine a constructor" in reason:
            reason = (
                f"YAML tags that construct objects are not allowed ({reason.split('tag ')[-1]})"
            )
        problems.append(Problem(shown, line, None, f"not valid YAML: {reason}"))
        return None
    except yaml.YAMLError as exc:
        problems.append(Problem(shown, 1, None, f"not valid YAML: {exc}"))
        return None
    except RecursionError:
        problems.append(Problem(shown, 1, None, "not valid YAML: nested too deeply"))
        return None
    except TimeoutError:
        problems.append(
            Problem(shown, 1, None, f"reading the file took longer than {PARSE_SECONDS} s")
        )
        return None
    return _Checker(shown, problems, ids).phase(data, path.name)


def load_quiz_set(paths: list[Path], on_file=None) -> QuizSet:
    """Load and validate every file under `paths`, then the rules that span files."""
    files, problems = collect_files(paths)
    quiz_set = QuizSet(problems=problems)
    if not files and not problems:
        problems.append(Problem(", ".join(str(p) for p in paths), 0, None, "no quiz files found"))
    ids: list[tuple[str, str, int]] = []
    for index, path in enumerate(files, start=1):
        if on_file:
            on_file(index, len(files), path)
        phase = load_file(path, problems, ids)
        if phase:
            quiz_set.phases.append(phase)

    numbers: dict[int, PhaseDoc] = {}
    for phase in quiz_set.phases:
        if phase.number in numbers:
            first = numbers[phase.number]
            problems.append(
                Problem(phase.path, 1, None, f"phase {phase.number} is also in {first.path}")
            )
        else:
            numbers[phase.number] = phase
    first_seen: dict[str, tuple[str, int]] = {}
    for code, path, line in ids:
        if code in first_seen:
            first_path, first_line = first_seen[code]
            message = f"duplicate question id (first in {first_path}:{first_line})"
            problems.append(Problem(path, line, code, message))
        else:
            first_seen[code] = (path, line)
    quiz_set.phases.sort(key=lambda p: p.number)
    return quiz_set
