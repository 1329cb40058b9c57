"""What an author's usual slips are answered with (author walk 3 of round 3): each
message says what to do, not only what the reader met."""

from io import StringIO

import pytest
from django.core.management import call_command

from quizzes.models import Question

from .cases import MINIMAL, refuse

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("written", ["correct: B", "correct: [B]"])
def test_a_right_option_named_on_the_question_says_where_it_is_marked(write_quiz, written):
    """`correct: B` on the question, as other quiz formats write it, was answered
    "did you mean 'reject'?"."""
    text = MINIMAL.replace("    kind: single\n", f"    kind: single\n    {written}\n", 1)

    errors = refuse(write_quiz(text))

    [error] = errors
    assert error.endswith(
        "phase-01-basics.yaml:8: q-01-01: unknown field 'correct': a question's right option "
        "is marked in 'options', with 'correct: true' under its key"
    ), error


@pytest.mark.parametrize("kind", ["single", "multi"])
def test_an_answer_on_a_choice_question_says_where_the_right_option_is_marked(write_quiz, kind):
    line = {"single": 8, "multi": 18}[kind]
    text = MINIMAL.replace(f"    kind: {kind}\n", f"    kind: {kind}\n    answer: 2\n", 1)

    errors = refuse(write_quiz(text))

    wanted = (
        f"phase-01-basics.yaml:{line}: q-01-0{1 if kind == 'single' else 2}: a {kind} "
        "question has no 'answer': mark its right option in 'options' with 'correct: true'"
    )
    assert any(e.endswith(wanted) for e in errors), errors


QUOTE_HINT = (
    " (a text starting with * ` [ { & ! % @, or holding ': ' or ' #', goes in quotes, en: '…' "
    "with a ' inside written twice, or in a block, en: | with the text indented on the lines "
    "below)"
)
INDENT_HINT = " (check the indentation of this line and of the lines above it)"


@pytest.mark.parametrize(
    ("old", "new", "line", "question", "hint"),
    [
        # Markdown a plain YAML text cannot start with, or a colon inside it.
        ("title: {en: Pick B}", "title: {en: *Pick* B}", 8, "q-01-01", QUOTE_HINT),
        (
            "    explanation: {en: A and C.}",
            "    explanation:\n      en: `A` and C.",
            29,
            "q-01-02",
            QUOTE_HINT,
        ),
        (
            "    explanation: {en: A and C.}",
            "    explanation:\n      en: Note: A and C.",
            29,
            "q-01-02",
            QUOTE_HINT,
        ),
        (
            "    explanation: {en: A and C.}",
            "    explanation:\n      en: '[A](https://a.org) and C.'\n"
            "      es: [A](https://a.org) y C.",
            30,
            "q-01-02",
            QUOTE_HINT,
        ),
        # A line indented one space too far, or not far enough.
        ("    kind: multi\n", "     kind: multi\n", 17, "q-01-02", INDENT_HINT),
        (
            "      - key: B\n        text: {en: 'No'}",
            "      - key: B\n       text: {en: 'No'}",
            24,
            "q-01-02",
            INDENT_HINT,
        ),
    ],
    ids=["emphasis", "code", "colon", "link", "indent-more", "indent-less"],
)
def test_a_syntax_error_names_its_question_and_what_to_do(
    write_quiz, old, new, line, question, hint
):
    """PyYAML's words name a token ("while scanning an alias", "mapping values are not
    allowed in this context"), not the Markdown that made it nor the indentation, and the
    message named no question."""
    assert old in MINIMAL

    [error] = refuse(write_quiz(MINIMAL.replace(old, new, 1)))

    assert f"phase-01-basics.yaml:{line}: {question}: not valid YAML: " in error, error
    assert error.endswith(hint), error


def test_a_text_in_a_flow_mapping_with_a_comma_after_it_is_no_colon_inside(write_quiz):
    """In `{en: …, es: …}` the English text ends at the comma: "es: " is not in it."""
    text = MINIMAL.replace(
        "      - key: B\n        text: {en: 'No'}", "      - key: B\n       text: {en: No, es: No}"
    )

    [error] = refuse(write_quiz(text))

    assert error.endswith(INDENT_HINT), error


@pytest.mark.parametrize(
    ("new", "line", "key", "left_out"),
    [
        ("    explanation:\n      en: The #1 cause is B.", 16, "en", "#1 cause is B."),
        ("    explanation: Because B. #B is right", 15, "explanation", "#B is right"),
    ],
)
def test_a_text_cut_by_a_comment_is_refused(write_quiz, new, line, key, left_out):
    """`en: The #1 cause is B.` is the text "The" in YAML: an explanation lost its end
    and the import said nothing."""
    text = MINIMAL.replace("    explanation: {en: Because B.}", new, 1)

    [error] = refuse(write_quiz(text))

    assert error.endswith(
        f"phase-01-basics.yaml:{line}: q-01-01: the text of '{key}' ends where ' #' starts a "
        f"YAML comment, so '{left_out}' is left out of it: put the text in quotes to keep it, "
        "or two spaces before a comment"
    ), error


def test_a_comment_two_spaces_after_a_text_is_the_authors(write_quiz):
    text = MINIMAL.replace(
        "    explanation: {en: Because B.}", "    explanation:\n      en: Because B.  # to check", 1
    )

    call_command("import_quizzes", str(write_quiz(text)), stdout=StringIO(), stderr=StringIO())

    assert Question.objects.get(code="q-01-01").current_revision.explanation_en == "Because B."


@pytest.mark.parametrize(
    ("new", "hint"),
    [
        ("answer: 3,5", " (YAML reads 3,5 as text: write 3.5)"),
        ("answer: 3 500", " (YAML reads 3 500 as text: write 3500)"),
        ('answer: "3.5"', " (a number in quotes is text: write it without them)"),
        ("tolerance: 0,05", " (YAML reads 0,05 as text: write 0.05)"),
        ("tolerance: 5e-2", " (YAML reads 5e-2 as text: write 5.0e-2)"),
        ('tolerance: "0.05"', " (a number in quotes is text: write it without them)"),
    ],
)
def test_a_number_yaml_reads_as_text_says_how_to_write_it(write_quiz, new, hint):
    """A Spanish author writes 3,5: YAML reads it as text, and the message said only
    "must be a number, not text"; a tolerance got no hint at all, not even 5e-2's."""
    from .test_numeric_import import NUMERIC

    field = new.split(":")[0]
    old = {"answer": "answer: 3.5", "tolerance": "tolerance: 0.05"}[field]

    [error] = refuse(write_quiz(MINIMAL + NUMERIC.replace(old, new, 1)))

    assert f"q-01-04: '{field}' must be a number" in error, error
    assert error.endswith(hint), error


@pytest.mark.parametrize("new", ["answer: three", "answer: 3.5 GB", "tolerance: 1,000"])
def test_a_text_that_is_no_number_gets_no_hint(write_quiz, new):
    from .test_numeric_import import NUMERIC

    old = "answer: 3.5" if new.startswith("answer") else "tolerance: 0.05"

    [error] = refuse(write_quiz(MINIMAL + NUMERIC.replace(old, new, 1)))

    assert error.endswith(("not text", "not '1,000'")), error


FALLBACK = ": leave 'es' out until it is translated, and the English text is shown"


@pytest.mark.parametrize(
    ("new", "message"),
    [
        ("title: {en: Pick B, es: ''}", "'title.es' is empty" + FALLBACK),
        ("title: {en: Pick B, es: }", "'title.es' must be text, not nothing" + FALLBACK),
        ("title: {en: '', es: Elige B}", "'title.en' is empty"),
    ],
)
def test_an_empty_spanish_text_says_leaving_it_out_shows_the_english(write_quiz, new, message):
    """An author keeps `es:` as a placeholder for a translation to come: the import said
    only that it is empty, not that leaving it out gives the English text."""
    [error] = refuse(write_quiz(MINIMAL.replace("title: {en: Pick B}", new, 1)))

    assert error.endswith(f"phase-01-basics.yaml:8: q-01-01: {message}"), error


@pytest.mark.parametrize(
    "name", ["phase-1-basics.yaml", "Phase-01-basics.yaml", "phase-01_basics.yaml", "basics.yaml"]
)
def test_a_file_name_out_of_shape_is_given_the_name_its_fields_say(write_quiz, name):
    [error] = refuse(write_quiz(MINIMAL, name=name))

    assert error.endswith(
        f"{name}:1: the file name must look like phase-NN-slug.yaml (NN two digits or more): "
        "phase-01-basics.yaml, as its phase and slug say"
    ), error


def test_a_file_name_out_of_shape_with_no_usable_slug_gets_no_name(write_quiz):
    text = MINIMAL.replace("slug: basics", "slug: Basics", 1)

    errors = refuse(write_quiz(text, name="phase-1-basics.yaml"))

    assert any(
        e.endswith("the file name must look like phase-NN-slug.yaml (NN two digits or more)")
        for e in errors
    ), errors


def test_a_syntax_error_names_its_question_whatever_the_order_of_its_fields(write_quiz):
    """A question written `- kind: multi` then `id:` was skipped: the error was put on
    the question above it."""
    text = MINIMAL.replace(
        "  - id: q-01-02\n    kind: multi\n", "  - kind: multi\n    id: q-01-02\n"
    )
    text = text.replace("text: {en: Yes too}", "text: {en: *Yes* too}", 1)

    [error] = refuse(write_quiz(text))

    assert "phase-01-basics.yaml:26: q-01-02: not valid YAML: " in error, error


def test_a_syntax_error_after_the_questions_names_none(write_quiz):
    [error] = refuse(write_quiz(MINIMAL + "extra: *x\n"))

    assert "phase-01-basics.yaml:35: not valid YAML: " in error, error


@pytest.mark.parametrize(
    ("old", "new", "line", "message"),
    [
        (
            "slug: basics",
            "slug: yes",
            3,
            "'slug' must be lowercase letters, digits and dashes, not true/false "
            "(put it in quotes)",
        ),
        (
            "id: q-01-02",
            "id: 2024",
            16,
            "'id' must be lowercase letters, digits and hyphens, not a number (put it in quotes)",
        ),
    ],
)
def test_a_slug_or_id_yaml_reads_as_something_else_says_to_quote_it(
    write_quiz, old, new, line, message
):
    """`slug: yes` is true in YAML: the message said the slug must be lowercase
    letters, which "yes" is."""
    errors = refuse(write_quiz(MINIMAL.replace(old, new, 1)))

    assert any(f"phase-01-basics.yaml:{line}:" in e and e.endswith(message) for e in errors), errors


def test_a_duplicate_id_says_what_to_do(write_quiz):
    """A question copied to start a new one keeps the id it was copied with."""
    copy = MINIMAL[MINIMAL.index("  - id: q-01-03") :]

    errors = refuse(write_quiz(MINIMAL + copy))

    [error] = [e for e in errors if "duplicate question id" in e]
    assert ":35: q-01-03: duplicate question id (first in " in error, error
    assert error.endswith(
        "phase-01-basics.yaml:29): a new question needs an id of its own; the same question "
        "is kept in one file"
    ), error


@pytest.mark.parametrize("newline", ["\r\n", "\r"])
def test_a_file_with_other_line_endings_is_read_and_its_cut_text_found(write_quiz, newline):
    """YAML reads a line ending as \\n, \\r\\n or a lone \\r (an old Mac editor's): the
    check for a text cut by a comment looked its line up among the \\n-split lines, and a
    file of lone \\r's stopped the import with an IndexError."""
    kept = MINIMAL.replace("\n", newline)
    cut = MINIMAL.replace("    explanation: {en: Because B.}", "    explanation: Because B. #B", 1)

    call_command("import_quizzes", str(write_quiz(kept)), stdout=StringIO(), stderr=StringIO())
    [error] = refuse(write_quiz(cut.replace("\n", newline)))

    assert Question.objects.get(code="q-01-01").current_revision.explanation_en == "Because B."
    assert error.endswith(
        "phase-01-basics.yaml:15: q-01-01: the text of 'explanation' ends where ' #' starts "
        "a YAML comment, so '#B' is left out of it: put the text in quotes to keep it, or two "
        "spaces before a comment"
    ), error


@pytest.mark.parametrize(
    ("old", "new", "line", "hint"),
    [
        ("title: {en: Pick B}", "title: {en: *Pick* B}", 8, QUOTE_HINT),
        ("    kind: multi\n", "     kind: multi\n", 17, INDENT_HINT),
    ],
    ids=["emphasis", "indent"],
)
def test_a_syntax_hint_reads_the_line_yaml_names_in_a_file_of_lone_cr(
    write_quiz, old, new, line, hint
):
    """The hints looked the line up among the \\n-split lines: in a file of lone \\r's
    they read the whole file as its first line and said nothing useful (review 33)."""
    text = MINIMAL.replace(old, new, 1).replace("\n", "\r")

    [error] = refuse(write_quiz(text))

    assert f"phase-01-basics.yaml:{line}: " in error and error.endswith(hint), error


@pytest.mark.parametrize(
    ("old", "new", "line", "question", "says"),
    [
        # A quote left open: YAML reads on to the next quote, in another question, and
        # the message named that question (or none, at the end of the file) and its
        # indentation (author walk 5).
        (
            "text: {en: Not this}",
            "text: {en: 'Not this}",
            11,
            "q-01-01",
            "the ' opened on this line is not closed on it, so YAML read on to line 21: "
            "close the quote (a ' inside a '…' text is written twice)",
        ),
        (
            "text: {en: Not this}",
            'text: {en: "Not this}',
            11,
            "q-01-01",
            'the " opened on this line is not closed on it, so YAML read on to the end of '
            'the file: close the quote (a " inside a "…" text is written \\")',
        ),
        (
            "title: {en: Pick B}",
            "title: {en: Pick B,\n            es: 'Elige B}",
            9,
            "q-01-01",
            "the ' opened on this line is not closed on it, so YAML read on to line 22",
        ),
        # A flow list or mapping left open.
        (
            "      - [identity, identidad]",
            "      - [identity, identidad",
            33,
            "q-01-03",
            "the '[' opened on this line is not closed: end it with ']' on this line "
            "(YAML read on to line 34 looking for it)",
        ),
        # ' #' inside {…}: the comment hides the closing brace.
        (
            "text: {en: Not this}",
            "text: {en: Not #1 this}",
            11,
            "q-01-01",
            "' #' starts a YAML comment, so the rest of this line, with the '}' that closes "
            "its '{', is not read: put the text in quotes",
        ),
    ],
    ids=["single-quote", "double-quote-to-the-end", "second-line", "bracket", "comment"],
)
def test_a_quote_or_bracket_left_open_is_named_on_its_own_line(
    write_quiz, old, new, line, question, says
):
    assert old in MINIMAL

    [error] = refuse(write_quiz(MINIMAL.replace(old, new, 1)))

    assert f"phase-01-basics.yaml:{line}: {question}: not valid YAML: {says}" in error, error
