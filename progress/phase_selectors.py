"""Reads for a phase page: one page of question cards and the index of the whole phase.

A phase may hold hundreds of questions, so the page renders `paging.page_size()` cards
and, for the rest, only a light index (code and verdict per question). A fixed number
of queries whatever the counts: the index (which also says which questions have a
standing or drafts); the standings of the page's questions when it has any (and the
older revisions their latest attempts answered, when any did) and their review cards;
their drafts when it has any; regrades only when a standing differs from its attempt's
own grade. The page's questions and revisions come from Django's cache, keyed by the phase
file's hash (one query when it misses, or for a phase not read from a file).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from portal import sql
from portal.caching import cached
from quizzes.models import Phase, Question, QuestionRevision

from .models import Draft, LearnerQuestion, ReviewCard
from .paging import page_href, page_of, question_href
from .selectors import QuestionState, drafts_attach, learner_standings, standings_attach

OPEN, RIGHT, WRONG = "open", "right", "wrong"


@dataclass(frozen=True)
class IndexEntry:
    code: str
    number: int  # its place in the phase, from 1
    page: int
    status: str  # OPEN (never answered), RIGHT or WRONG: the latest effective verdict


@dataclass
class PhasePage:
    phase: Phase
    number: int
    count: int  # pages in the phase
    index: list[IndexEntry]
    states: list[QuestionState]

    @property
    def total(self) -> int:
        return len(self.index)

    @property
    def answered(self) -> int:
        return sum(entry.status != OPEN for entry in self.index)

    @property
    def right(self) -> int:
        return sum(entry.status == RIGHT for entry in self.index)

    @property
    def first(self) -> int:
        on_page = [entry.number for entry in self.index if entry.page == self.number]
        return on_page[0] if on_page else 0

    @property
    def last(self) -> int:
        on_page = [entry.number for entry in self.index if entry.page == self.number]
        return on_page[-1] if on_page else 0

    @property
    def continue_entry(self) -> IndexEntry | None:
        """The first question never answered: where "Continue" lands."""
        return next((entry for entry in self.index if entry.status == OPEN), None)

    @property
    def continue_href(self) -> str:
        entry = self.continue_entry
        if entry is None:
            return ""
        if entry.page == self.number:
            return f"#{entry.code}"
        return question_href(phase_number=self.phase.number, code=entry.code, page=entry.page)

    @property
    def previous_href(self) -> str:
        if self.number <= 1:
            return ""
        return page_href(phase_number=self.phase.number, page=self.number - 1)

    @property
    def next_href(self) -> str:
        if self.number >= self.count:
            return ""
        return page_href(phase_number=self.phase.number, page=self.number + 1)


def active_phase(number: int) -> Phase | None:
    """`Phase.objects.active().filter(number=number).first()` (`number` is unique), read
    without the ORM building it on every phase page (`portal.sql.read`)."""
    return sql.read(
        Phase,
        "SELECT {columns} FROM {table} WHERE {table.number} = %s AND {table.retired_at} IS NULL",
        [number],
    )


def question_to_answer(code: str) -> Question | None:
    """The question `code` with its phase and current revision, as
    `Question.objects.select_related("phase", "current_revision").get(code=code)` gives
    it (None when there is none), for the answer: two one-row reads
    (`portal.sql.read`) and the revision, which never changes, from Django's cache,
    instead of the ORM building a three-table query on every answer."""
    question = sql.read(
        Question,
        "SELECT {columns:q}, r.{revision.content_hash} AS current_hash FROM {table} q "
        "LEFT JOIN {revision} r ON r.{revision.id} = q.{table.current_revision} "
        "WHERE q.{table.code} = %s",
        [code],
        revision=QuestionRevision,
    )
    if question is None:
        return None
    question.phase = sql.read(
        Phase, "SELECT {columns} FROM {table} WHERE {table.id} = %s", [question.phase_id]
    )
    if question.current_revision_id is not None:
        # Revisions are written once and never change: kept by question, id and
        # content hash (ids alone could name another revision in a database made
        # afresh, as the tests' are; equal content can belong to two questions).
        def read() -> QuestionRevision:
            return QuestionRevision.objects.get(pk=question.current_revision_id)

        key = (question.pk, question.current_revision_id, question.current_hash)
        revision = cached("revision", key, read)
        question.current_revision = revision if revision.question_id == question.pk else read()
    return question


class _Row(NamedTuple):
    code: str
    ids: tuple[int, int]  # the question's id and its current revision's id
    correct: bool | None  # the standing's latest verdict; None: never answered
    draft: bool  # the learner has a draft for it
    kept: bool  # something was kept for it while logged out


# The index's query, in SQL (`portal.sql`): Django builds the same query from
# FilteredRelations anew on every phase page (three joins with conditions), many times
# what running it costs (docs/data-layer.md). tests/progress/test_phase_paging.py checks
# it against the ORM's answer on standings, drafts of both kinds and retired questions.
_ROWS_SQL = """
SELECT q.{table.code}, q.{table.id}, q.{table.current_revision},
    s.{standing.latest_correct}, d.{draft.id}, k.{draft.id}
FROM {table} q
LEFT JOIN {standing} s ON s.{standing.question} = q.{table.id} AND s.{standing.learner} = %s
LEFT JOIN {draft} d ON d.{draft.question} = q.{table.id} AND d.{draft.learner} = %s
    AND NOT d.{draft.logged_out}
LEFT JOIN {draft} k ON k.{draft.question} = q.{table.id} AND k.{draft.learner} = %s
    AND k.{draft.logged_out}
WHERE q.{table.phase} = %s AND q.{table.retired_at} IS NULL
ORDER BY q.{table.position}
"""


def _phase_rows(*, learner, phase: Phase) -> list[_Row]:
    """Every active question of `phase` in order, with the learner's latest effective
    verdict (the standing's, regrades included) and whether drafts wait on it: one
    query, one narrow row each (a draft is unique per learner, question and kind)."""
    found = sql.rows(
        Question,
        _ROWS_SQL,
        [learner.pk, learner.pk, learner.pk, phase.pk],
        standing=LearnerQuestion,
        draft=Draft,
    )
    return [
        _Row(
            code,
            (question, revision),
            None if correct is None else bool(correct),
            draft is not None,
            kept is not None,
        )
        for code, question, revision, correct, draft, kept in found
    ]


def _index(rows: list[_Row]) -> list[IndexEntry]:
    return [
        IndexEntry(
            code=row.code,
            number=ordinal + 1,
            page=page_of(ordinal=ordinal),
            status=OPEN if row.correct is None else RIGHT if row.correct else WRONG,
        )
        for ordinal, row in enumerate(rows)
    ]


def phase_index(*, learner, phase: Phase) -> list[IndexEntry]:
    """Every active question of `phase` in order, with the learner's latest effective
    verdict: one query."""
    return _index(_phase_rows(learner=learner, phase=phase))


def _page_questions(
    *, phase: Phase, codes: tuple[str, ...], ids: tuple[tuple[int, int], ...]
) -> dict[str, Question]:
    """A page's questions with their current revisions, held in Django's cache by the
    phase file's hash, the page's codes and the ids the index read for them (each
    question's and its current revision's): an import that changes anything in a
    phase changes its file's hash, revisions never change, and the ids keep a database
    restored or made afresh from the questions of another that the cache outlived (red
    team 22). Phases not read from a file (no hash) are not cached."""

    def read() -> dict[str, Question]:
        return {
            q.code: q
            for q in Question.objects.active()
            .filter(phase=phase, code__in=codes)
            .select_related("current_revision", "phase")
        }

    if not phase.source_hash:
        return read()
    return cached("page-questions", (phase.pk, phase.source_hash, codes, ids), read)


def phase_overview(*, learner, phase: Phase, holding: str) -> PhasePage:
    """The status line, Continue and index of the page holding question `holding`,
    without its cards: what an answer's response updates out of band. One query."""
    index = phase_index(learner=learner, phase=phase)
    count = max(page_of(ordinal=len(index) - 1), 1) if index else 1
    number = next((entry.page for entry in index if entry.code == holding), 1)
    return PhasePage(phase=phase, number=number, count=count, index=index, states=[])


def phase_page(*, learner, phase: Phase, page: int = 1, holding: str | None = None) -> PhasePage:
    """Page `page` of `phase` (clamped to the pages there are), or the page holding
    question `holding` when it is in the phase: a link to a question by its code alone,
    such as "answer again", lands where the question is."""
    rows = {row.code: row for row in _phase_rows(learner=learner, phase=phase)}
    index = _index(list(rows.values()))
    count = max(page_of(ordinal=len(index) - 1), 1) if index else 1
    held = next((entry.page for entry in index if entry.code == holding), None)
    number = held or min(max(page, 1), count)
    codes = [entry.code for entry in index if entry.page == number]
    ids = tuple(rows[code].ids for code in codes)
    questions = _page_questions(phase=phase, codes=tuple(codes), ids=ids)
    ordered = [questions[code] for code in codes if code in questions]
    states = {q.pk: QuestionState(question=q) for q in ordered}
    # The index row says which of the page's questions have a standing or drafts: only
    # those are read, so a page nobody has touched costs no query beyond the index.
    answered = [q for q in ordered if rows[q.code].correct is not None]
    if answered:
        standings_attach(
            states=states, standings=learner_standings(learner=learner, questions=answered)
        )
        # The review cards, so that an answered card says when it comes back after a
        # reload too, not only in the answer's htmx reply.
        for card in ReviewCard.objects.filter(learner=learner, question__in=answered):
            states[card.question_id].card = card
    drafted = {q.pk: states[q.pk] for q in ordered if rows[q.code].draft or rows[q.code].kept}
    if drafted:
        drafts_attach(learner=learner, states=drafted)
    result = [states[q.pk] for q in ordered]
    for state, following in zip(result, result[1:], strict=False):
        state.next_code = following.question.code
    if result and number < count:
        # The last card's "Next question" opens the next page at its first question.
        following = next(entry for entry in index if entry.page == number + 1)
        result[-1].next_code = following.code
        result[-1].next_url = question_href(
            phase_number=phase.number, code=following.code, page=following.page
        )
    if result and number == count:
        _continue_from_last(result[-1], index=index, phase_number=phase.number, page=number)
    return PhasePage(phase=phase, number=number, count=count, index=index, states=result)


def _continue_from_last(state: QuestionState, *, index, phase_number: int, page: int) -> None:
    """The phase's last card goes on to the first question never answered, not back to
    the phases while one is left (UX walk: "Continue" was only at the top of the page)."""
    entry = next((e for e in index if e.status == OPEN and e.code != state.question.code), None)
    if entry is None:
        return
    state.continue_entry = entry
    state.continue_url = (
        f"#{entry.code}"
        if entry.page == page
        else question_href(phase_number=phase_number, code=entry.code, page=entry.page)
    )


def answered_state(*, question: Question, answered, overview: PhasePage) -> QuestionState:
    """The feedback state of an answer just stored (`services.Answered`, with the
    standing and card storing it wrote), its "Next question" from the phase's index in
    `overview`: no query. A new attempt has no regrade or override on it yet."""
    state = QuestionState(
        question=question,
        tries=answered.standing.attempts,
        latest=answered.attempt,
        card=answered.card,
    )
    codes = [entry.code for entry in overview.index]
    at = codes.index(question.code) if question.code in codes else None
    if at is not None and at + 1 < len(codes):
        here, following = overview.index[at], overview.index[at + 1]
        state.next_code = following.code
        if following.page != here.page:
            state.next_url = question_href(
                phase_number=question.phase.number, code=following.code, page=following.page
            )
    elif at is not None:
        page = overview.index[at].page
        _continue_from_last(
            state, index=overview.index, phase_number=question.phase.number, page=page
        )
    return state


def question_page(*, question: Question) -> int:
    """The page of its phase that holds `question` (one count query)."""
    before = (
        Question.objects.active()
        .filter(phase_id=question.phase_id, position__lt=question.position)
        .count()
    )
    return page_of(ordinal=before)


def question_url(*, question: Question) -> str:
    """The question on the page of its phase that holds it."""
    page = question_page(question=question)
    return question_href(phase_number=question.phase.number, code=question.code, page=page)
