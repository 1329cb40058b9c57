"""Every doubt the grader can raise has its words in Spanish on the To check page."""

import pytest
from django.utils import translation

from quizzes.grading import DOUBTS
from teaching.to_check import doubt_words


@pytest.mark.parametrize("code", sorted(DOUBTS))
def test_every_doubt_is_translated(code):
    with translation.override("es"):
        assert doubt_words(code) != DOUBTS[code]
