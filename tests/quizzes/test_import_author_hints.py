"""What an author's usual slips are answered with (author walk 3 of round 3): each
message says what to do, not only what the reader met."""

import pytest

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
