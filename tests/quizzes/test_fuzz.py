"""Property-based fuzzing of the quiz loader: any input imports or is refused with a
message naming its file and line — never a traceback, a hang or a partial write."""

from io import StringIO
from pathlib import Path

import pytest
import yaml
from django.core.management import CommandError, call_command
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from quizzes.loader import load_quiz_set
from quizzes.models import Question, QuestionRevision
from quizzes.services import ImportRefused, quiz_import

from .cases import MINIMAL

FUZZ = settings(
    max_examples=150,
    deadline=2000,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=30),
)
structures = st.recursive(
    scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=5),
        st.dictionaries(st.one_of(st.text(max_size=10), st.integers()), children, max_size=5),
    ),
    max_leaves=30,
)
fields = st.sampled_from(
    [
        "format",
        "phase",
        "slug",
        "title",
        "questions",
        "id",
        "kind",
        "options",
        "expected",
        "key",
        "text",
        "correct",
        "en",
        "es",
        "prompt",
        "explanation",
        "pass_mentions",
    ]
)
quiz_like = st.recursive(
    scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=4), st.dictionaries(fields, children, max_size=6)
    ),
    max_leaves=40,
)


def check(folder: Path, text: str | bytes) -> None:
    path = folder / "phase-01-basics.yaml"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
    quiz_set = load_quiz_set([folder])
    for problem in quiz_set.problems:
        assert problem.path.endswith("phase-01-basics.yaml")
        assert problem.line >= 0
        assert problem.message


@pytest.fixture
def folder(tmp_path):
    target = tmp_path / "fuzz"
    target.mkdir()
    return target


@FUZZ
@given(data=structures)
def test_fuzz_random_structures(folder, data):
    check(folder, yaml.safe_dump(data, allow_unicode=True))


@FUZZ
@given(data=quiz_like)
def test_fuzz_quiz_shaped_structures(folder, data):
    check(folder, yaml.safe_dump(data, allow_unicode=True))


@FUZZ
@given(cut=st.integers(min_value=0, max_value=len(MINIMAL)))
def test_fuzz_truncated_files(folder, cut):
    check(folder, MINIMAL[:cut])


@FUZZ
@given(position=st.integers(min_value=0, max_value=len(MINIMAL)), noise=st.text(max_size=20))
def test_fuzz_random_unicode_inserted(folder, position, noise):
    check(folder, MINIMAL[:position] + noise + MINIMAL[position:])


@FUZZ
@given(raw=st.binary(max_size=200))
def test_fuzz_random_bytes(folder, raw):
    check(folder, raw)


@pytest.mark.parametrize("depth", [10, 1000, 100_000])
def test_deep_nesting_is_refused_quickly(folder, depth):
    check(folder, "questions: " + "[" * depth + "]" * depth)
    check(folder, "questions:\n" + "".join("  " * i + "- \n" for i in range(min(depth, 3000))))


def test_huge_numbers_are_refused(folder):
    check(folder, MINIMAL.replace("phase: 1", "phase: " + "9" * 5000))

    problems = load_quiz_set([folder]).problems
    assert [(p.line, p.message) for p in problems] == [(2, "not valid YAML: a number is too large")]


def test_alias_bomb_is_refused_without_expanding(folder):
    bomb = ["a: &a [x, x, x, x, x, x, x, x, x]"]
    for level in range(1, 12):
        previous = chr(ord("a") + level - 1)
        name = chr(ord("a") + level)
        bomb.append(f"{name}: &{name} [" + ", ".join([f"*{previous}"] * 9) + "]")

    quiz_set_check = check(folder, "\n".join(bomb) + "\n")

    assert quiz_set_check is None
    problems = load_quiz_set([folder]).problems
    assert [p.message for p in problems] == [
        "not valid YAML: anchors and aliases are not allowed in quiz files"
    ]


class Rollback(Exception):
    """Undo one example's writes: hypothesis runs many examples in one test transaction."""


@pytest.mark.django_db
@FUZZ
@given(cut=st.integers(min_value=0, max_value=len(MINIMAL)))
def test_fuzzed_import_writes_all_or_nothing(folder, cut):
    (folder / "phase-01-basics.yaml").write_text(MINIMAL[:cut], encoding="utf-8")

    try:
        with transaction.atomic():
            quiz_set = load_quiz_set([folder])
            try:
                plan = quiz_import(quiz_set=quiz_set)
            except ImportRefused:
                assert (Question.objects.count(), QuestionRevision.objects.count()) == (0, 0)
            else:
                assert Question.objects.count() == len(plan.added) == len(quiz_set.questions)
                assert QuestionRevision.objects.count() == len(plan.added)
            raise Rollback
    except Rollback:
        pass


@pytest.mark.django_db
def test_import_command_never_shows_a_traceback_for_fuzzed_input(folder):
    (folder / "phase-01-basics.yaml").write_bytes(b"format: 1\n\xff\xfe: [\x00")
    err = StringIO()

    with pytest.raises(CommandError):
        call_command("import_quizzes", str(folder), stdout=StringIO(), stderr=err)

    assert "Traceback" not in err.getvalue()
    assert "phase-01-basics.yaml:" in err.getvalue()
