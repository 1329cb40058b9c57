"""A set of quiz files: which files, which to skip as unchanged, and the rules across files."""

from __future__ import annotations

import errno
import gc
import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from . import grading
from .documents import KnownFile, PhaseDoc, Problem, QuizSet, SkippedFile, phase_doc
from .grading.vocabulary import VOCABULARY_FILE, vocabulary_load
from .number_slips import ambiguous_number_problems
from .rules import (
    example_problems,
    file_name_problems,
    question_example_problems,
    question_ids,
    question_problems_at,
    sound_questions,
    unseen_text_problems,
)
from .schema import SCHEMA_PATH, schema_report, type_name
from .yaml_reader import FileTooLarge, question_near, read_bytes, read_document

# Bump when the loader's rules change in a way the schema file does not show, so that
# files imported under the old rules are read again instead of skipped as unchanged.
RULES_VERSION = "6"
SYMLINK = "a symbolic link; quiz files must be regular files in the folder"


def collect_files(paths: list[Path]) -> tuple[list[Path], list[Problem]]:
    """Expand folders to their `*.yaml` files, in a stable order. A symbolic link inside a
    folder is refused: it could lead anywhere (/etc/passwd, another checkout)."""
    files: list[Path] = []
    problems: list[Problem] = []
    for path in paths:
        if path.is_dir():
            for found in sorted(path.glob("*.yaml")):
                if found.is_symlink():
                    problems.append(Problem(display_path(found), 1, None, SYMLINK))
                elif found.is_file():
                    files.append(found)
            # Read by no one: a phase in one would be retired without a word (author walk).
            # The suffix in any case: glob is case-sensitive here, and an editor on macOS
            # or Windows may well save phase-20-x.YAML.
            for found in sorted(path.iterdir()):
                suffix = found.suffix
                if suffix.lower() in {".yaml", ".yml"} and suffix != ".yaml":
                    message = f"quiz files end in .yaml (phase-NN-slug.yaml), not {suffix}"
                    problems.append(Problem(display_path(found), 1, None, message))
        elif path.is_file():
            files.append(path)
        else:
            problems.append(Problem(str(path), 0, None, "no such file or folder"))
    # Not resolve(): that would follow a link swapped in after the listing.
    unique = list(dict.fromkeys(p.absolute() for p in files))
    return [Path(p) for p in unique], problems


def display_path(path: Path) -> str:
    try:
        return str(path.absolute().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


@cache
def _rules_salt() -> bytes:
    """What a file is checked by besides its own bytes: the schema, these rules and the
    grading its examples run through. A change to any of them reads every file again."""
    digest = hashlib.sha256(RULES_VERSION.encode())
    digest.update(SCHEMA_PATH.read_bytes())
    # The whole grading package and its vocabulary: a matcher change can turn an example.
    for path in sorted(Path(grading.__file__).parent.glob("*.py")):
        digest.update(path.read_bytes())
    digest.update(VOCABULARY_FILE.read_bytes())
    return digest.digest()


def file_hash(raw: bytes) -> str:
    return hashlib.sha256(_rules_salt() + raw).hexdigest()


class VocabularyRefused(Exception):
    """The grading vocabulary is over a limit (grading/vocabulary.py). Checked when a file
    is read, not before: an edit of the vocabulary changes every file's hash."""

    def __init__(self, problem: Problem):
        self.problem = problem
        super().__init__(str(problem))


@dataclass(frozen=True)
class ExamplesRefused:
    """A file read whole whose examples the key grades otherwise: not imported, but its
    keys can still be explained (what its author needs to see why)."""

    phase: PhaseDoc


def load_file(
    path: Path,
    problems: list[Problem],
    ids: list[tuple[str, str, int]],
    known: dict[str, KnownFile] | None = None,
) -> PhaseDoc | SkippedFile | ExamplesRefused | None:
    """Read and check one file; a SkippedFile when `known` says it is unchanged."""
    shown = display_path(path)
    try:
        raw = read_bytes(path)
    except FileTooLarge as exc:
        problems.append(Problem(shown, 1, None, f"file is {exc.size} bytes; the limit is 1 MiB"))
        return None
    except OSError as exc:
        if exc.errno == errno.ELOOP:  # the link appeared after the folder was listed
            problems.append(Problem(shown, 1, None, SYMLINK))
        else:
            problems.append(Problem(shown, 0, None, f"cannot read file: {exc.strerror}"))
        return None
    digest = file_hash(raw)
    before = (known or {}).get(path.name)
    if before and before.file_hash == digest:
        ids.extend((code, shown, 0) for code in before.codes)
        return SkippedFile(shown, path.name, before.number, before.codes)

    try:
        vocabulary_load()  # the examples are graded with it; once it loads, it is kept
    except ValueError as exc:
        raise VocabularyRefused(Problem(display_path(VOCABULARY_FILE), 1, None, str(exc))) from None
    data, line, refusal = read_document(raw)
    if refusal:
        problems.append(Problem(shown, line, question_near(raw, line), refusal))
        return None
    if data is None:
        problems.append(Problem(shown, 1, None, "the file is empty"))
        return None
    if not isinstance(data, dict):
        message = f"the file must be a mapping of fields, not {type_name(data)}"
        problems.append(Problem(shown, 1, None, message))
        return None
    found, broken = schema_report(data, shown)
    ids.extend(question_ids(data, shown))
    if any(p.message.startswith("unknown format") for p in found):
        problems.extend(found)
        return None
    ruled = question_problems_at(data, shown) + ambiguous_number_problems(raw, data, shown)
    found += file_name_problems(data, path.name, shown) + [problem for _, problem in ruled]
    found += unseen_text_problems(data, ("title",), None, shown)
    if found:
        # All in one pass: the examples of each question no problem is in are graded too
        # (a question with a problem of its own may have its key wrong: they wait for it).
        broken |= {index for index, _ in ruled}
        for question in sound_questions(data, path=shown, broken=broken):
            found += question_example_problems(question)
        problems.extend(sorted(found, key=lambda p: p.line))
        return None
    phase = phase_doc(data, path=shown, file_hash=digest)
    examples = example_problems(phase)
    problems.extend(examples)
    return ExamplesRefused(phase) if examples else phase


def _across_files(entries: list[PhaseDoc | SkippedFile], ids, problems: list[Problem]) -> bool:
    """Phase numbers and question ids unique across files; True if any clash."""
    before = len(problems)
    numbers: dict[int, str] = {}
    for entry in entries:
        if entry.number in numbers:
            message = f"phase {entry.number} is also in {numbers[entry.number]}"
            problems.append(Problem(entry.path, 1, None, message))
        else:
            numbers[entry.number] = entry.path
    first_seen: dict[str, tuple[str, int]] = {}
    for code, path, line in ids:
        if code in first_seen:
            first_path, first_line = first_seen[code]
            message = (
                f"duplicate question id (first in {first_path}:{first_line}): a new "
                "question needs an id of its own; the same question is kept in one file"
            )
            problems.append(Problem(path, line, code, message))
        else:
            first_seen[code] = (path, line)
    return len(problems) > before


def load_quiz_set(
    paths: list[Path],
    on_file: Callable[[int, int, Path], None] | None = None,
    known: dict[str, KnownFile] | None = None,
) -> QuizSet:
    """Load and check every file under `paths`, then the rules that span files. Files
    that `known` (file name → what was last imported) shows unchanged are not read."""
    # Reading builds hundreds of thousands of small objects and no reference cycles: the
    # cyclic collector would only rescan them, again and again (a third of the time).
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _load_quiz_set(paths, on_file, known)
    finally:
        if collecting:
            gc.enable()


def _load_quiz_set(paths, on_file, known) -> QuizSet:
    files, problems = collect_files(paths)
    quiz_set = QuizSet(problems=problems)
    if not files and not problems:
        problems.append(Problem(", ".join(str(p) for p in paths), 0, None, "no quiz files found"))
    ids: list[tuple[str, str, int]] = []
    entries: list[PhaseDoc | SkippedFile] = []
    for index, path in enumerate(files, start=1):
        if on_file:
            on_file(index, len(files), path)
        try:
            entry = load_file(path, problems, ids, known)
        except VocabularyRefused as refused:  # no example can be graded: nothing else is
            problems.append(refused.problem)
            return quiz_set
        if isinstance(entry, ExamplesRefused):
            quiz_set.examples_refused.append(entry.phase)
            continue
        if isinstance(entry, SkippedFile):
            quiz_set.skipped.append(entry)
        if entry:
            entries.append(entry)
    if _across_files(entries, ids, problems) and quiz_set.skipped:
        # A clash with an unchanged file: read everything, so each message has its line.
        return _load_quiz_set(paths, on_file=None, known=None)
    # Each file's problems together, by line: a duplicate id found across files takes its
    # place among its file's others (those of no file read, such as a link, come first).
    ranks = {display_path(path): rank for rank, path in enumerate(files)}
    problems.sort(key=lambda p: (ranks.get(p.path, -1), p.line))
    quiz_set.phases = sorted(
        (e for e in entries if isinstance(e, PhaseDoc)), key=lambda p: p.number
    )
    return quiz_set
