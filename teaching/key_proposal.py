"""From an instructor's "right" on a free answer the key rejected to a better key: which
words to add to which mention, as the YAML line to paste, and what that change would do
to the stored answers (a dry run with the pure grading functions: nothing is written).

The words proposed come from the answer, as written, so an author can see where they
come from: runs of its words, within one clause, that no mention or reject entry matched
(two to MAX_WORDS words that are not stop words, single words last; no stop word,
connective ("because", "porque") or negation cue at either end, no negation cue inside,
not only words the question says), those with two words the question itself does not say
first ("three times the deviation" before "when the loss", for a question about loss
spikes), then the shortest. Up to PHRASES_PER_MENTION of them that make the answer right
once added to the missed mention are proposed, each with its dry run, for the instructor
to choose; when another mention is missing too, so that no one change can, those that
make the mention found. When none does (the matcher reads none as the mention), all
those words, in the order written. A phrase fits the words the key has left, and a
mention of as many alternatives as a key takes gets none (`full`), so the line proposed
imports. The YAML stays the source of truth: the author trims the phrase, edits the
file, imports and regrades.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import yaml
from django.db.models import Count
from django.db.models.fields.json import KT
from django.utils.html import format_html
from django.utils.translation import gettext as _

from portal.languages import LANGUAGE_CODES
from progress.models import Attempt
from quizzes.enums import QuestionKind
from quizzes.grading import grade_free
from quizzes.grading.cues import not_negations_found
from quizzes.grading.text import is_symbol, stems, tokenize
from quizzes.grading.vocabulary import vocabulary_load
from quizzes.models import QuestionRevision
from quizzes.rules import MAX_ALTERNATIVE_WORDS, MAX_KEY_WORDS, word_count
from quizzes.schema import schema

# Words that join a sentence to the one before ("because the layer norm…"): a phrase
# starting or ending with one would, pasted as is, find any answer that opens so. Not
# stop words for the grader (they carry meaning there), only for the edges proposed.
CONNECTIVES = frozenset(
    {"because", "since", "so", "thus", "therefore", "hence", "then", "also"}
    | {"porque", "pues", "entonces", "asi", "tambien", "luego"}
)
MAX_WORDS = 6  # a phrase longer than this is a sentence, not a way of saying a mention
MAX_TRIES = 120  # candidate phrases graded per missed mention, at most (a long answer)
# A phrase proposed must import: at most the words (stop words and symbols count) and
# characters of one alternative (quiz-format.md, "Limits of a free key").
MAX_CHARS = schema()["$defs"]["alternative"]["maxLength"]
# Nor may it take the mention past its alternatives, or the key past its words in all.
MAX_ALTERNATIVES = schema()["$defs"]["mention"]["maxItems"]
PHRASES_PER_MENTION = 3


@dataclass
class MentionChange:
    """One missed mention and the phrase that would let the answer find it."""

    index: int  # the mention's position in `expected`, from 0
    alternatives: list[str]
    phrase: str
    answer_right: bool = False  # the learner's answer right with this change alone
    # No run proposed, so these are the answer's leftover words, and they make it right
    # (all the question's own words, say): the page must not say "still not found".
    leftover_right: bool = False
    others_missing: bool = False  # other mentions are missing too: no one change does it
    # The phrase, added, finds its mention in the answer (leftover words may not).
    mention_found: bool = True
    to_right: int = 0  # stored answers wrong by the key now, right with the change
    to_wrong: int = 0  # and the other way round

    @property
    def number(self) -> int:
        return self.index + 1

    @property
    def yaml_line(self) -> str:
        """The mention's line in `expected:` with the phrase added, to paste."""
        return "- " + _flow([*self.alternatives, self.phrase])

    @property
    def yaml_line_now(self) -> str:
        return "- " + _flow(self.alternatives)

    @property
    def yaml_line_marked(self) -> str:
        """`yaml_line` as HTML, the phrase added marked (<ins>): the same text to copy."""
        now, full = self.yaml_line_now, self.yaml_line
        kept = now[:-1] + ", "  # the line up to its closing bracket, and the comma
        return format_html("{}<ins>{}</ins>]", kept, full[len(kept) : -1])


@dataclass
class KeyProposal:
    attempt: Attempt
    revision: QuestionRevision  # the question's current revision: what the YAML holds
    language: str  # the language the learner answered in
    right_now: bool = False  # the current key already finds the answer right
    changes: list[MentionChange] = field(default_factory=list)
    negated: list[int] = field(default_factory=list)  # mention numbers read as negated
    # Each with the answer's words read so ("gradient … large"): what the author looks at.
    negated_where: list[tuple[int, str]] = field(default_factory=list)
    rejected: list[str] = field(default_factory=list)  # reject entries the answer says
    # Missed mentions that can take no phrase: the mention or the key at its limits.
    full: list[int] = field(default_factory=list)
    answers: int = 0  # stored answers the dry run graded
    all_cohorts: bool = False  # counted over every learner (a superuser's view)


def _flow(items: list[str]) -> str:
    """A YAML flow list, quoted where YAML needs it ('no', 'on', a colon…)."""
    return yaml.safe_dump(items, default_flow_style=True, allow_unicode=True, width=10**6).strip()


def _graded(revision: QuestionRevision, text: str, expected=None):
    """`text` graded by `revision`'s key, or by it with `expected` for its mentions, as
    the answer service grades: the language unknown, read in both."""
    return grade_free(
        expected=revision.expected if expected is None else expected,
        pass_mentions=revision.pass_mentions,
        reject=revision.reject or (),
        answer=text,
        prompt=revision.grading_prompt,
    )


def _grade(revision: QuestionRevision, expected, text: str) -> bool:
    return _graded(revision, text, expected).correct


def leftover_phrase(*, text: str, covered: list[tuple[int, int]]) -> str:
    """The answer's words outside every matched span, without stop words, negation cues
    or symbols, as written (lower case), each once, at most MAX_WORDS and MAX_CHARS in
    all (the limits of one alternative, so the line imports)."""
    vocabulary = vocabulary_load()
    skip = vocabulary.for_languages("stopwords", LANGUAGE_CODES) | vocabulary.for_languages(
        "negations", LANGUAGE_CODES
    )
    tokens = tokenize(text)
    chosen: dict[str, str] = {}
    for norm, start, end in zip(tokens.norms, tokens.starts, tokens.ends, strict=True):
        if norm in skip or norm in chosen or is_symbol(norm):
            continue
        if any(s < end and start < e for s, e in covered):
            continue
        word = text[start:end].lower()
        if len(" ".join([*chosen.values(), word])) > MAX_CHARS:
            continue  # a word this long would make the line one the importer refuses
        chosen[norm] = word
        if len(chosen) == MAX_WORDS:
            break
    return " ".join(chosen.values())


def candidate_phrases(*, text: str, covered: list[tuple[int, int]], prompt: str = "") -> list[str]:
    """Runs of the answer's words outside every matched span, as written (lower case),
    each once: single words last; first those with two words or more that are neither
    stop words nor the prompt's (by stem, in either language; all of them in a phrase of
    one such word), then the shortest, the one with most such words, the first written.
    A negation cue may open a run, never sit inside it: "sin cambios", "without rescaling"
    are how keys say "unchanged" (the grader reads such a mention as a whole)."""
    vocabulary = vocabulary_load()
    stop = vocabulary.for_languages("stopwords", LANGUAGE_CODES) | CONNECTIVES
    negations = vocabulary.for_languages("negations", LANGUAGE_CODES)
    languages = tuple(LANGUAGE_CODES)
    # The prompt's words and their one-word equivalents in the shared vocabulary, so a
    # prompt in one language covers an answer in the other ("loss": "pérdida").
    prompt_words = set(tokenize(prompt).norms)
    for group in vocabulary.groups:
        if any((word,) in group for word in prompt_words):
            prompt_words.update(phrase[0] for phrase in group if len(phrase) == 1)
    prompt_stems = set().union(*(stems(word, languages) for word in prompt_words))

    def own(norm: str) -> bool:  # a word the prompt does not already say
        return norm not in prompt_words and not (stems(norm, languages) & prompt_stems)

    tokens = tokenize(text)
    spans = list(zip(tokens.norms, tokens.starts, tokens.ends, strict=True))
    free = [not any(s < end and start < e for s, e in covered) for _n, start, end in spans]
    # "sin embargo" (however), "not only", "sin duda": a cue that denies nothing, as the
    # grader reads it, opens no run; added to a key, it would find any answer saying so.
    affirming = not_negations_found(tokens, vocabulary)
    found: dict[str, tuple] = {}  # phrase: its sort key
    for first, (norm, start, _end) in enumerate(spans):
        privative = norm in negations and first not in affirming
        if (
            not free[first]
            or is_symbol(norm)
            or ((norm in stop or norm in negations) and not privative)
        ):
            continue
        words = owned = 0
        # A run stops at the limits of an alternative ("=" and "the" count as words there),
        # so a long answer costs a few runs a word, not a run to its end.
        for last in range(first, min(len(spans), first + MAX_ALTERNATIVE_WORDS)):
            norm_last, _s, end = spans[last]
            if not free[last] or (norm_last in negations and last != first):
                break
            if tokens.clauses[last] != tokens.clauses[first]:
                break  # the grader reads a phrasing within one clause ("atrás; si": none)
            if (norm_last in stop or is_symbol(norm_last)) and last != first:
                continue
            words += 1
            if privative and words == 1:
                continue  # a cue alone would deny, not name, an idea
            owned += own(norm_last)
            if words > MAX_WORDS:
                break
            if not owned:
                # Only words the question says: added to the key, it would find any
                # answer that restates the question (UX walk: "rare token").
                continue
            # The cue counts with the word it qualifies: "sin cambios" is two words of
            # the answer's own, as "inalterado" would be one (UX walk: "gradiente pasa").
            mine = owned + privative
            phrase = " ".join(text[start:end].lower().split())
            if len(phrase) > MAX_CHARS:
                break
            found.setdefault(phrase, (words == 1, mine < min(words, 2), words, -mine, first))
    return sorted(found, key=found.__getitem__)


def _phrases_for(
    revision, expected, index: int, text: str, candidates: list[str], *, found_only: bool
) -> list[str]:
    """The first PHRASES_PER_MENTION candidates that make `text` right once added to
    mention `index` (with `found_only`, when no one change can, that make the mention
    found in it), none inside another (a longer run adds nothing to a shorter one)."""
    chosen: list[str] = []
    for phrase in candidates[:MAX_TRIES]:
        if any(phrase in other or other in phrase for other in chosen):
            continue
        changed = [list(m) for m in expected]
        changed[index].append(phrase)
        graded = _graded(revision, text, changed)
        if graded.mentions[index].status == "found" if found_only else graded.correct:
            chosen.append(phrase)
            if len(chosen) == PHRASES_PER_MENTION:
                break
    return chosen


def key_proposal(*, attempt: Attempt, learner_ids=None) -> KeyProposal | None:
    """What to add to the key of `attempt`'s question so that its answer is right, and
    what that would change among the stored answers to the question: every learner's
    when `learner_ids` is None, else those learners' (an instructor's cohorts). None
    for a choice question. Reads only."""
    revision = attempt.question.current_revision
    if revision is None or revision.kind != QuestionKind.FREE:
        return None
    text = attempt.text
    result = _graded(revision, text)
    proposal = KeyProposal(
        attempt=attempt,
        revision=revision,
        language=attempt.language,
        right_now=result.correct,
        all_cohorts=learner_ids is None,
        negated=[m.index + 1 for m in result.mentions if m.status == "negated"],
        negated_where=[
            (m.index + 1, " … ".join(text[start:end] for start, end in m.spans))
            for m in result.mentions
            if m.status == "negated"
        ],
        rejected=[r.alternative for r in result.rejected],
    )
    if result.correct:
        return proposal
    matched = [m for m in result.mentions if m.status != "missed"]
    covered = [tuple(span) for item in (*matched, *result.rejected) for span in item.spans]
    phrase = leftover_phrase(text=text, covered=covered)
    if not phrase:
        return proposal
    expected = [_listed(m) for m in revision.expected]
    needed = revision.pass_mentions or len(expected)
    others_missing = sum(m.status == "found" for m in result.mentions) + 1 < needed
    # With other mentions missing too, no one change makes the answer right: each missed
    # mention gets the runs that make it found, one to fill each (author walk 4: the
    # leftover words, the same for every mention and across clauses, found none).
    candidates = candidate_phrases(text=text, covered=covered, prompt=revision.grading_prompt)
    room = MAX_KEY_WORDS - sum(
        word_count(str(a)) for m in (*expected, *(revision.reject or ())) for a in _listed(m)
    )
    candidates = [c for c in candidates if word_count(c) <= room]
    while phrase and word_count(phrase) > room:
        phrase = " ".join(phrase.split()[:-1])
    for mention in result.mentions:
        if mention.status != "missed":
            continue
        if not phrase or len(expected[mention.index]) >= MAX_ALTERNATIVES:
            proposal.full.append(mention.index + 1)  # a line here the importer refuses
            continue
        found = _phrases_for(
            revision, expected, mention.index, text, candidates, found_only=others_missing
        )
        leftover_right = False
        mention_found = bool(found)
        if not found:
            # The leftover words may still make it right (a walk: "token raro", the
            # question's own words, turned this very answer right in the dry run while
            # the page said "still not found"), or at least find the mention.
            changed = [list(m) for m in expected]
            changed[mention.index].append(phrase)
            graded = _graded(revision, text, changed)
            leftover_right = graded.correct and not others_missing
            mention_found = graded.mentions[mention.index].status == "found"
        for one in found or [phrase]:
            proposal.changes.append(
                MentionChange(
                    index=mention.index,
                    alternatives=expected[mention.index],
                    phrase=one,
                    answer_right=bool(found) and not others_missing,
                    others_missing=others_missing,
                    leftover_right=leftover_right,
                    mention_found=mention_found,
                )
            )
    _dry_run(proposal, expected=expected, learner_ids=learner_ids)
    return proposal


def key_change_note(*, attempt: Attempt, url: str) -> str:
    """The message after an instructor marks a free answer right, linking to its key
    change page: "the key missed it" only when words added to the key could make it
    right (a walk: an answer wrong by a negation was said to be missed by the key, and
    the page linked said no word would help). A mention read as negated rules words out
    only when the mentions left cannot reach the number needed (author walk 4: with 1 of
    2 needed, a phrase added to the other made the answer right, as the page proposed)."""
    revision = attempt.question.current_revision
    result = _graded(revision, attempt.text)
    negated = sum(m.status == "negated" for m in result.mentions)
    needed = revision.pass_mentions or len(result.mentions)
    if result.correct:
        lead, link = _("The current key already finds this answer right."), _("See the key")
    elif result.rejected or (negated and len(result.mentions) - negated < needed):
        lead = _(
            "No words added to the key would make this answer right: the grader reads a "
            "mention in it as negated, or finds a reject entry."
        )
        link = _("See why")
    else:
        lead, link = _("The key missed this answer."), _("See the key change it suggests")
    return format_html('{} <a href="{}">{}</a>', lead, url, link)


def _listed(mention) -> list:
    """A mention's alternatives: a mention written as one text is a list of one."""
    return [mention] if isinstance(mention, str) else list(mention)


def _dry_run(proposal: KeyProposal, *, expected, learner_ids) -> None:
    """Grade every stored answer to the question (each distinct text once) with the key
    as it is and with each change, and count the verdicts that would turn."""
    if not proposal.changes:
        return
    attempts = Attempt.objects.filter(question_id=proposal.attempt.question_id)
    if learner_ids is not None:
        attempts = attempts.filter(learner_id__in=learner_ids)
    texts: Counter[str] = Counter()
    for text, n in (
        attempts.annotate(text=KT("answer__text"))
        .order_by()
        .values_list("text")
        .annotate(n=Count("pk"))
    ):
        texts[text or ""] += n
    proposal.answers = sum(texts.values())
    revision = proposal.revision
    before = {text: _grade(revision, expected, text) for text in texts}
    for change in proposal.changes:
        changed = [list(m) for m in expected]
        changed[change.index].append(change.phrase)
        for text, n in texts.items():
            after = _grade(revision, changed, text)
            if after and not before[text]:
                change.to_right += n
            elif before[text] and not after:
                change.to_wrong += n
