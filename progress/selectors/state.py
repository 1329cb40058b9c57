"""A question card's state on the learner's pages: what was answered, how it was
judged, what the feedback shows."""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

from django.utils import formats, timezone, translation
from django.utils.translation import gettext as _

from quizzes.changes import key_changed, options_moved, revision_content
from quizzes.grading import highlight_html, mention_label, negated_label
from quizzes.grading.numeric import normalized
from quizzes.models import Question, QuestionRevision

from ..enums import VerdictSource
from ..models import (
    Attempt,
    Regrade,
    ReviewCard,
    Verdict,
)
from ..paging import again_href


def _grouped(number: str) -> str:
    """A formatted number's integer part in groups of three from five digits on, as the
    hint asks learners to write it ("14 000 000 000", "1234"): joined by no-break spaces
    in both languages, where a point or a comma would read as a decimal."""

    def groups(match: re.Match) -> str:
        digits = match[2]
        head = len(digits) % 3 or 3
        rest = [digits[i : i + 3] for i in range(head, len(digits), 3)]
        return match[1] + "\u00a0".join([digits[:head], *rest])

    return re.sub(r"^([-+]?)(\d{5,})", groups, number)


@dataclass(frozen=True)
class OptionFeedback:
    key: str
    text: dict
    picked: bool
    correct: bool
    multi: bool = False  # of a question with several right options
    # The key that graded the pick has been replaced (and no regrade changed the
    # verdict): the card names the right options now, so none is marked by the old key.
    replaced: bool = False

    @property
    def css(self) -> str:
        if self.picked:
            return "right-pick" if self.correct else "wrong-pick"
        return "missed-key" if self.correct and not self.replaced else ""

    @property
    def note(self) -> str:
        """What the feedback says beside the option, if anything."""
        if self.picked:
            if self.replaced:
                return _("your pick")
            return _("your pick, right") if self.correct else _("your pick, wrong")
        if self.correct and not self.replaced:
            return _("right, not picked") if self.multi else _("the right answer")
        return ""


@dataclass(frozen=True)
class MentionFeedback:
    alternatives: list[str]
    status: str  # "found" | "missed" | "negated"
    typos: tuple[tuple[str, str], ...] = ()
    negative: bool = False  # found through a negatively phrased alternative
    field: bool = False  # found by its words, not by a phrasing of it
    # Negated: the learner's words read as saying the opposite, so the feedback points
    # at them and not only at the key's first phrasings, which they may never have used.
    quote: str = ""

    @property
    def found(self) -> bool:
        return self.status == "found"

    @property
    def label(self) -> str:
        """The mention named in the active language (the page's): a few of its phrasings;
        for a negative phrasing contradicted, the negative ones, nearest the answer first."""
        language = (translation.get_language() or "en").split("-")[0]
        if self.status == "negated" and self.negative:
            return negated_label(self.alternatives, language, self.quote)
        return mention_label(self.alternatives, language)


def _runs(text: str, spans) -> list[tuple[int, int]]:
    """The grader's spans (one per word, possibly overlapping) joined into the runs of
    text they cover: "2 Sigma", not "2" and "Sigma"; words apart stay apart."""
    runs: list[list[int]] = []
    for start, end in sorted((int(a), int(b)) for a, b in spans):
        if runs and not text[runs[-1][1] : start].strip():
            runs[-1][1] = max(runs[-1][1], end)
        else:
            runs.append([start, end])
    return [(start, end) for start, end in runs]


def _quoted(text: str, spans) -> str:
    """The learner's words the grader's spans cover, runs apart joined by " … "."""
    return " … ".join(text[start:end] for start, end in _runs(text, spans))


@dataclass
class QuestionState:
    question: Question
    tries: int = 0
    latest: Attempt | None = None
    # Whether `latest` was read (None then means never answered): a form's token names
    # the latest attempt it was made after only then (see progress.tokens), or when
    # `latest_id_seen` says it without the attempt (the reviews page's due card).
    latest_read: bool = True
    latest_id_seen: int | None = None
    draft: dict | None = None
    # What was sent for this question while the session had expired, kept apart from
    # the learner's own draft until the learner checks it and sends it.
    kept: dict | None = None
    next_code: str | None = None
    # Where "Next question" goes when the next question is on another page of the phase.
    next_url: str = ""
    # The phase's last question: its first question never answered, if any, where a
    # "Continue" takes the learner instead of back to the phases (an IndexEntry).
    continue_entry: object = None
    continue_url: str = ""
    # Set by the view for a question whose form is shown.
    token: str = ""
    show_form: bool = False
    error: str = ""
    # The error says another answer stands (another tab's): the form shows it too.
    standing_shown: bool = False
    # The revision the form shows: the current one, unless a form of an older
    # revision is shown again with the learner's input (its token names that one).
    form_revision: QuestionRevision | None = None
    # The learner's review card for the question, where the feedback says when it
    # comes back (loaded for the answer's feedback only).
    card: ReviewCard | None = None
    # What the form starts from when nothing was kept: the previous free answer.
    prefill: dict | None = None
    # The regrade or override that stands on the latest attempt, if any.
    verdict_entry: Regrade | None = None
    # Whether an instructor has confirmed or overridden the latest attempt's verdict
    # (read only where the grader was unsure of it).
    checked: bool = False

    @property
    def latest_seen(self) -> int | None:
        """What a form's token names as the latest attempt it was made after: its id, 0
        for none, None where it was not read."""
        if not self.latest_read:
            return self.latest_id_seen
        return self.latest.pk if self.latest is not None else 0

    @property
    def grading(self) -> dict:
        """What the grader found (picks, mentions), as it now stands."""
        entry = self.verdict_entry
        if entry is not None and entry.new_feedback:
            return entry.new_feedback
        return self.latest.feedback

    @property
    def partial(self) -> float:
        entry = self.verdict_entry
        if entry is not None and entry.new_partial is not None:
            return entry.new_partial
        return self.latest.partial

    @property
    def verdict(self) -> Verdict | None:
        """The latest attempt's effective verdict: what every page shows."""
        if self.latest is None:
            return None
        return self.latest.verdict_from(self.verdict_entry)

    @property
    def provisional(self) -> bool:
        """The grader was unsure of the latest verdict and no instructor has looked at
        it yet: the learner is told it may be revised."""
        return self.latest is not None and bool(self.latest.doubts) and not self.checked

    @property
    def review_note(self) -> dict | None:
        """When the question comes back for review, and whether this answer was a
        review or practice (a card rates one answer a day, when due)."""
        card, attempt = self.card, self.latest
        if card is None or attempt is None or card.learned_at is not None:
            return {"learned": True} if card is not None and card.learned_at else None
        due_day = timezone.localdate(card.due)
        return {
            # An override or a regrade rebuilt the schedule from the verdict as it stands,
            # even if the answer's day was practice (a confirmation changes nothing).
            "rated": card.scheduled_by(attempt)
            or (
                self.verdict_entry is not None and self.verdict_entry.kind != VerdictSource.CONFIRM
            ),
            "days": max((due_day - timezone.localdate()).days, 0),
            "due": card.due,
        }

    # "reviews" when shown on the reviews page: "next" then means the next due card.
    context: str = ""

    @property
    def next_href(self) -> str:
        return self.next_url or f"#{self.next_code}"

    @property
    def revision(self):
        return self.form_revision or self.question.current_revision

    @property
    def form_answer(self) -> dict | None:
        """What the form is filled with: what was kept while logged out (the newest
        typing, shown with a note to check it), else the learner's draft, else the
        previous answer when answering again."""
        return self.kept or self.draft or self.prefill

    @property
    def again_href(self) -> str:
        return again_href(phase_number=self.question.phase.number, code=self.question.code)

    @property
    def graded_revision(self):
        """The revision whose key the standing verdict applied: a regrade's newer one,
        else the one the learner answered. Feedback reads its key from here."""
        entry = self.verdict_entry
        if entry is not None and entry.revision_id:
            return entry.revision
        return self.latest.revision

    @property
    def key_now(self) -> QuestionRevision | None:
        """The question's current revision when its key is not the one that graded the
        latest answer (an import corrected it, and no regrade changed this verdict): the
        feedback says so, or the learner would learn a replaced key. None otherwise, and
        for an instructor's override, which no key graded."""
        if self.latest is None:
            return None
        verdict = self.verdict
        if verdict is not None and verdict.is_override:
            return None  # an instructor's verdict: no key graded it
        graded = self.graded_revision
        if graded.pk == self.question.current_revision_id:
            return None
        current = self.question.current_revision
        if current is None or not key_changed(revision_content(graded), revision_content(current)):
            return None
        return current

    @property
    def key_now_moved(self) -> bool:
        """The current key's options were lettered again: its letters name other options
        than the card's (the answered revision's), so the card names none of them."""
        now = self.key_now
        return bool(now and options_moved(self.latest.revision.options, now.options))

    @property
    def key_now_same_right(self) -> bool:
        """Options were added or removed since the answer, and the same letters are
        still the right ones: "the right answer is now B" said B had not been (author
        walk 3 of round 3, an unpicked wrong option removed)."""
        now, graded = self.key_now, self.graded_revision
        if not now or now.kind != graded.kind or not now.options or self.key_now_moved:
            return False  # a kind changed too is a key changed ("single → multi")
        return sorted(now.correct_keys) == sorted(graded.correct_keys)

    @property
    def options_feedback(self) -> list[OptionFeedback]:
        """The latest attempt's revision's options, each with whether it was picked."""
        if self.latest is None:
            return []
        picked = set(self.latest.keys)
        right = {o["key"] for o in self.graded_revision.options if o.get("correct")}
        multi = self.latest.revision.is_multi
        replaced = self.key_now is not None
        return [
            OptionFeedback(
                o["key"], o["text"], o["key"] in picked, o["key"] in right, multi, replaced
            )
            for o in self.latest.revision.options
        ]

    @property
    def mentions_feedback(self) -> list[MentionFeedback]:
        if self.latest is None:
            return []
        feedback = self.grading
        details = feedback.get("mentions") or []
        found = set(feedback.get("found", []))
        result = []
        for index, alternatives in enumerate(self.graded_revision.expected):
            if index < len(details):  # graded by a matcher that explains itself
                detail = details[index]
                typos = tuple(tuple(pair) for pair in detail.get("typos", []))
                quote = ""
                if detail["status"] == "negated":
                    quote = _quoted(self.latest.text, detail.get("spans", []))
                result.append(
                    MentionFeedback(
                        list(alternatives),
                        detail["status"],
                        typos,
                        detail.get("negative", False),
                        detail.get("field", False),
                        quote,
                    )
                )
            else:
                status = "found" if index in found else "missed"
                result.append(MentionFeedback(list(alternatives), status))
        return result

    @property
    def answer_marked(self) -> str:
        """The learner's free answer, escaped, with the words that matched marked."""
        feedback = self.grading
        spans = [
            tuple(span)
            for item in [*feedback.get("mentions", []), *feedback.get("rejected", [])]
            for span in item.get("spans", [])
        ]
        return highlight_html(text=self.latest.text, spans=spans)

    @property
    def rejected(self) -> list[str]:
        """What made the answer wrong, in the learner's own words (the grader's spans
        into their text), else the key's phrasing of it."""
        return [
            _quoted(self.latest.text, item.get("spans", [])) or item["alternative"]
            for item in self.grading.get("rejected", [])
        ]

    @property
    def partial_parts(self) -> dict[str, int]:
        """A multiple-answer score explained: right picks − wrong picks, of the right keys."""
        right = len(self.grading.get("right_picks", []))
        wrong = len(self.grading.get("wrong_picks", []))
        total = len(self.graded_revision.correct_keys)
        return {"right": right, "wrong": wrong, "net": max(right - wrong, 0), "total": total}

    @property
    def numeric_feedback(self) -> dict[str, str]:
        """A numeric answer as read and the key that graded it, in the viewer's language
        and number format: {"read", "right", "tolerance", "low", "high"} ("3,5 GB",
        "14 GB", "8 %"...); "tolerance" is "" when only the exact value is right."""
        revision, value = self.graded_revision, self.latest.answer.get("value")
        key = revision.numeric_key
        unit = revision.unit(translation.get_language() or "en")

        def shown(number: Decimal) -> str:
            text = _grouped(formats.number_format(normalized(number), use_l10n=True))
            return f"{text}\u00a0{unit}" if unit else text  # a unit never starts a line

        feedback = {
            "read": shown(Decimal(value)) if value is not None else self.latest.text,
            "right": shown(key.answer),
            "tolerance": "",
        }
        if key.tolerance:
            tolerance = formats.number_format(key.tolerance.normalize(), use_l10n=True)
            relative = _("%(number)s%%") % {"number": tolerance}
            feedback["tolerance"] = relative if key.relative else shown(key.tolerance)
            feedback["low"] = shown(key.answer - key.margin)
            feedback["high"] = shown(key.answer + key.margin)
        return feedback

    @property
    def mentions_needed(self) -> int:
        revision = self.graded_revision if self.latest else self.revision
        return revision.pass_mentions or len(revision.expected)
