"""Reading and validating quiz YAML files into plain documents (no database).

The contract is docs/quiz-format.md and its JSON Schema, docs/quiz-format.schema.json.
Every problem in a whole set of files is collected, each with its file, line and question
id, so an author fixes them all in one pass. The work is split by concern:
`yaml_reader` (safe, line-keeping parsing), `schema` (the JSON Schema and its messages),
`rules` (what a schema cannot say about one file), `fileset` (files, skipping unchanged
ones, rules across files), `documents` (what comes out). This module keeps the one
import path callers use.
"""

from .documents import (
    ExampleDoc,
    KnownFile,
    OptionDoc,
    PhaseDoc,
    Problem,
    QuestionDoc,
    QuizSet,
    SkippedFile,
)
from .enums import QuestionKind
from .fileset import collect_files, display_path, file_hash, load_file, load_quiz_set
from .schema import schema
from .yaml_reader import (
    MAX_FILE_BYTES,
    PARSE_SECONDS,
    LineDict,
    LineList,
    parse_yaml,
    time_limit,
)

FORMAT_VERSION = 1
KINDS = tuple(QuestionKind.values)

__all__ = [
    "FORMAT_VERSION",
    "KINDS",
    "MAX_FILE_BYTES",
    "PARSE_SECONDS",
    "ExampleDoc",
    "KnownFile",
    "LineDict",
    "LineList",
    "OptionDoc",
    "PhaseDoc",
    "Problem",
    "QuestionDoc",
    "QuizSet",
    "SkippedFile",
    "collect_files",
    "display_path",
    "file_hash",
    "load_file",
    "load_quiz_set",
    "parse_yaml",
    "schema",
    "time_limit",
]
