"""What a learner is told when an answer's shape is refused: a number that cannot be
read, a text over the limit (also said again over a kept draft that is too long)."""

from __future__ import annotations

from django.utils import formats, translation
from django.utils.translation import gettext as _

from quizzes.grading.numeric import MAX_CHARS, NumberRefused
from quizzes.models import QuestionRevision

MAX_ANSWER_CHARS = 10_000
MAX_KEPT_CHARS = 5 * MAX_ANSWER_CHARS  # what a refused or unsent answer keeps of its text
# An example's groups are joined by no-break spaces (the reader takes them as spaces): on a
# phone "2 415 919 104" broke at a line's end into two numbers. Kept out of the messages,
# where makemessages would not read "\u00a0" as the character.
GROUPED = "2\u00a0415\u00a0919\u00a0104"
THOUSAND = "1\u00a0000"


def number_refusal(refused: NumberRefused, revision: QuestionRevision) -> str:
    """What to tell a learner whose answer is not read as a number: how to write it."""
    if refused.reason == "empty":
        return _("Write a number first.")
    if refused.reason == "ambiguous":
        return _(
            "“%(text)s” can be read two ways. Write a thousand as 1000 or %(thousand)s, and "
            "decimals with one point or comma: 1.5 or 1,5."
        ) % {"text": refused.text, "thousand": THOUSAND}
    if refused.reason == "marks":
        return _(
            "Use at most one decimal point or comma, and group thousands with spaces: %(example)s."
        ) % {"example": GROUPED + formats.get_format("DECIMAL_SEPARATOR") + "5"}
    if refused.reason == "long":
        return _("A number takes at most %(max)s characters; this answer has %(length)s.") % {
            "max": MAX_CHARS,
            "length": formats.number_format(len(refused.text), force_grouping=True),
        }
    if refused.reason == "range":
        return _(
            "“%(text)s” is out of the range of this course's quantities: write a number "
            "from 1e-99 to 1e99 in size, or 0."
        ) % {"text": refused.text}
    if refused.reason == "groups":
        return _("Group digits in threes with spaces, as in %(example)s, or not at all.") % {
            "example": GROUPED
        }
    if refused.reason == "power":
        return _("Write a power of ten with e: %(written)s instead of “%(text)s”.") % {
            "written": refused.written,
            "text": refused.text,
        }
    unit = revision.unit(translation.get_language() or "en")
    if refused.reason == "unit" and unit:
        return _("Write the number, in %(unit)s: for example 3.5 or 3.5 %(unit)s.") % {"unit": unit}
    if refused.reason == "unit":
        return _("Write the number alone, without a unit.")
    return _("Write a number in digits, such as 3.5; 3,5 or 2.4e9.")


def answer_too_long(text: str) -> str:
    """What is wrong with a free answer's length, or "": also said again over a kept
    draft that is too long, so a reload does not hide why it was refused."""
    if len(text) <= MAX_ANSWER_CHARS:
        return ""
    sizes = {
        "length": formats.number_format(len(text), force_grouping=True),
        "max": formats.number_format(MAX_ANSWER_CHARS, force_grouping=True),
        "kept": formats.number_format(MAX_KEPT_CHARS, force_grouping=True),
    }
    message = _("The answer is too long: %(length)s characters, at most %(max)s.")
    if len(text) > MAX_KEPT_CHARS:  # the box gets back only what answer_raw keeps
        message = _(
            "The answer is too long: %(length)s characters, at most %(max)s. Only "
            "its first %(kept)s characters are kept below: copy the rest from "
            "where you wrote it."
        )
    return message % sizes
