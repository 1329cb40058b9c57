"""The CSV export of a cohort's attempts, streamed."""

import re

from django.db.models.fields.json import KT
from django.utils import timezone, translation

from portal.invisible import visible
from progress.models import Regrade
from quizzes.models import Question, QuestionRevision, localized

from .models import Cohort
from .selectors import cohort_attempts, cohort_learner_ids

# Spreadsheet programs read a UTF-8 file as UTF-8 when it starts with this mark; other
# tools (Python's csv, pandas) would see it glued to the first header, so it is asked for.
BOM = "\ufeff"


# A formula's first character (and the forms NFKC reads as it: full-width, small,
# superscript, subscript) at the start of the cell or after anything a spreadsheet may
# split a cell at, white space and a byte-order mark aside: a Spanish-locale spreadsheet
# splits at ";", which Python's csv does not quote, so ";=1+1" would start a cell.
_FORMULA_START = re.compile(
    r"(^|[;,\t\r\n])([\s\ufeff]*)([=+\-@|＝＋－＠｜\ufe66\ufe62\ufe63\ufe6b⁼⁺⁻₌₊₋])"
)


def csv_safe(value):
    """Learner-typed text must not run as a spreadsheet formula: a quote goes before
    each place one could start ("'=1+1", "a;'=1+1"). What no reader sees goes first
    (`portal.invisible`), as from every answer sent since: an answer stored before
    brings no terminal escape sequence, and no invisible character hides a sign."""
    if isinstance(value, str):
        value = visible(value)
        value = _FORMULA_START.sub(r"\1\2'\3", value)
        return "'" + value if value[:1] in ("\t", "\r") else value
    return value


def export_rows(*, cohort: Cohort):
    """CSV rows (header first) of every attempt of the cohort, streamed, each moment in
    the time zone active now (the instructor's, as the Memory CSV's): read here, since
    the rows are made after the view returned, when the time zone middleware has put
    the server's back.

    Names come from two small lookups and regrades from one, so the attempts are read
    in one pass in index order, with no join and no per-row subquery.
    """
    return _export_rows(cohort=cohort, zone=timezone.get_current_timezone())


def _export_rows(*, cohort: Cohort, zone):
    learners = dict(cohort.learners.values_list("id", "username"))
    language = (translation.get_language() or "en")[:2]
    questions = {
        pk: (code, number, localized({"en": en, "es": es}, language)[0])
        for pk, code, number, en, es in Question.objects.values_list(
            "id",
            "code",
            "phase__number",
            "current_revision__title_en",
            "current_revision__title_es",
        )
    }
    revisions = dict(QuestionRevision.objects.values_list("id", "number"))
    # The newest entry of each attempt wins (later ones overwrite earlier ones).
    regraded = {
        attempt_id: (correct, score, kind)
        for attempt_id, correct, score, kind in Regrade.objects.filter(
            attempt__learner_id__in=cohort_learner_ids(cohort)
        )
        .order_by("id")
        .values_list("attempt_id", "new_correct", "new_score", "kind")
    }
    yield [
        "learner",
        "phase",
        "question",
        "attempt",
        "revision",
        "answer",
        "correct",
        "score",
        "partial_score",
        "regraded_correct",
        "regraded_score",
        "regraded_by",  # regrade, override or confirm: who the verdict now stands on
        "language",
        "answered_at",
        "question_title",
    ]
    rows = (
        cohort_attempts(cohort=cohort)
        # The text is pulled out by the database, so no row's JSON is decoded here.
        .annotate(answer_text=KT("answer__text"))
        .order_by("learner_id", "question_id", "id")
        .values_list(
            "id",
            "learner_id",
            "question_id",
            "revision_id",
            "pattern",
            "answer_text",
            "correct",
            "score",
            "partial",
            "language",
            "created_at",
        )
    )
    previous, number = None, 0
    for (
        pk,
        learner_id,
        question_id,
        revision_id,
        pattern,
        text,
        correct,
        score,
        partial,
        language,
        created_at,
    ) in rows.iterator(chunk_size=5000):
        number = number + 1 if (learner_id, question_id) == previous else 1
        previous = (learner_id, question_id)
        code, phase, title = questions[question_id]
        regrade = regraded.get(pk)
        yield [
            csv_safe(learners.get(learner_id, learner_id)),
            phase,
            code,
            number,
            revisions[revision_id],
            csv_safe(text) if text is not None else " ".join(pattern),
            int(correct),
            score,
            partial,
            "" if regrade is None else int(regrade[0]),
            "" if regrade is None else regrade[1],
            "" if regrade is None else regrade[2],
            language,
            timezone.localtime(created_at, zone).isoformat(),
            csv_safe(title),
        ]
