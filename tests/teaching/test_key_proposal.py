"""From an override to a better key: the words to add to which mention, the YAML line,
and a dry run over the stored answers, worked out by hand on q-19-05.

q-19-05 expects three mentions, two needed: [embedding row, embedding, fila de
embedding, …], [large gradient, big gradient, huge gradient, …], [dominates, domina, …].
ana's "the embedding row takes over the norm" finds only the first. The runs of her
words no mention matched are "takes over" (two words the prompt does not say: first),
"over the norm" ("norm" is the prompt's) and "takes over the norm" (holds both: not
proposed). Added to mention 2 or 3, each of the two makes her answer right. Over the
stored answers (both phrases are in the same ones):
- ana (cohort): wrong → right with either change;
- bea (cohort), "a huge gradient takes over the norm": mention 2 found; a phrase in
  mention 3 makes it two → right; in mention 2 it stays one → wrong;
- cid (cohort), "the embedding row and a huge gradient": right either way;
- dan (cohort), "its embedding row is what matters": only the first, wrong either way
  (not "takes over" either: two words of the added phrase would find it by its words);
- zed (another cohort), bea's text: counted only for a superuser.
So for the instructor, 4 answers: mention 2 turns 1 right, mention 3 turns 2; for a
superuser, 5 answers: 1 and 3. Adding words never turns one wrong here.
"""

import pytest

from progress.models import Attempt
from quizzes.grading.text import words
from teaching.key_proposal import (
    _graded,
    candidate_phrases,
    key_change_note,
    key_proposal,
    leftover_phrase,
)
from teaching.models import Cohort
from tests.factories import UserFactory, answer

pytestmark = pytest.mark.django_db

TARGET = "the embedding row takes over the norm"
BEA = "a huge gradient takes over the norm"


@pytest.fixture
def cohort(seeds_imported, instructor):
    cohort = Cohort.objects.create(name="Spring")
    cohort.instructors.add(instructor)
    texts = {
        "ana": TARGET,
        "bea": BEA,
        "cid": "the embedding row and a huge gradient",
        "dan": "its embedding row is what matters",
    }
    for name, text in texts.items():
        user = UserFactory(username=name)
        cohort.learners.add(user)
        answer(user, "q-19-05", text=text)
    other = Cohort.objects.create(name="Autumn")
    zed = UserFactory(username="zed")
    other.learners.add(zed)
    answer(zed, "q-19-05", text=BEA)
    return cohort


def target():
    return Attempt.objects.get(learner__username="ana")


def cohort_learners(cohort):
    return Cohort.learners.through.objects.filter(cohort=cohort).values("user_id")


def test_proposal_names_the_words_the_mentions_and_the_yaml(cohort):
    proposal = key_proposal(attempt=target(), learner_ids=cohort_learners(cohort))

    assert (proposal.right_now, proposal.language, proposal.rejected, proposal.negated) == (
        False,
        "en",
        [],
        [],
    )
    assert [(c.number, c.phrase, c.answer_right) for c in proposal.changes] == [
        (2, "takes over", True),
        (2, "over the norm", True),
        (3, "takes over", True),
        (3, "over the norm", True),
    ]
    now = (
        "- [dominates, domina, most of the norm, almost all of the norm, nearly all of the "
        "norm, whole norm, la mayor parte de la norma, casi toda la norma, toda la norma"
    )
    assert proposal.changes[2].yaml_line_now == now + "]"
    assert proposal.changes[2].yaml_line == now + ", takes over]"


def test_dry_run_counts_the_instructors_cohorts(cohort):
    proposal = key_proposal(attempt=target(), learner_ids=cohort_learners(cohort))

    assert (proposal.answers, proposal.all_cohorts) == (4, False)
    assert [(c.to_right, c.to_wrong) for c in proposal.changes] == [(1, 0), (1, 0), (2, 0), (2, 0)]


def test_dry_run_counts_every_learner_for_a_superuser(cohort):
    proposal = key_proposal(attempt=target(), learner_ids=None)

    assert (proposal.answers, proposal.all_cohorts) == (5, True)
    assert [(c.to_right, c.to_wrong) for c in proposal.changes] == [(1, 0), (1, 0), (3, 0), (3, 0)]


def test_dry_run_writes_nothing(cohort):
    before = list(Attempt.objects.values_list("pk", "correct", "doubts"))

    key_proposal(attempt=target(), learner_ids=None)

    assert list(Attempt.objects.values_list("pk", "correct", "doubts")) == before
    assert not Attempt.objects.filter(regrades__isnull=False).exists()


def test_a_rejected_or_negated_answer_gets_no_words(cohort):
    ana = cohort.learners.get(username="ana")
    rejected = answer(ana, "q-10-03", text="The weights are initialized to the identity matrix.")
    negated = answer(ana, "q-10-03", text="it is not the identity")

    for_rejected = key_proposal(attempt=rejected, learner_ids=None)
    for_negated = key_proposal(attempt=negated, learner_ids=None)

    assert (for_rejected.rejected, for_rejected.changes) == (["initialized to the identity"], [])
    assert (for_negated.negated, for_negated.changes) == ([1], [])


def test_a_choice_answer_has_no_proposal(cohort):
    attempt = answer(cohort.learners.get(username="ana"), "q-10-01", keys=["A"])

    assert key_proposal(attempt=attempt, learner_ids=None) is None


def page_url(cohort, attempt):
    return f"/admin/teaching/cohort/{cohort.pk}/results/attempt/{attempt.pk}/key-change/"


def test_key_change_page_shows_the_proposal(client, cohort, instructor):
    client.force_login(instructor)

    html = " ".join(client.get(page_url(cohort, target())).content.decode().split())

    assert "<title>Key change for q-19-05 | " in html
    # The attempt's language is its pages', not its text's: "The answer's language:
    # Spanish" over an answer in English misled (UX walk 24).
    assert (
        "Against the current key of q-19-05 (revision 1). Answered on the pages in English; "
        "the answer is read in both languages, whichever it is written in." in html
    )
    assert '<code class="yaml-line">- [dominates, domina, most of the norm, ' in html
    assert "casi toda la norma, toda la norma, <ins>takes over</ins>]</code>" in html
    assert "<td>3: dominates / domina / most of the norm / " in html
    assert "Dry run over 4 stored answers to this question by the learners of your cohorts" in html
    assert "<td>2</td> <td>0</td>" in html
    # Back to where such a page is opened from: the learner's answers, the To check list.
    attempt = target()
    learner = f"/admin/teaching/cohort/{cohort.pk}/results/learner/{attempt.learner_id}/"
    href = f"{learner}?attempt={attempt.pk}#attempt-{attempt.pk}"
    assert f'<a href="{href}">{attempt.learner.username}' + "'s answers</a>" in html
    assert (
        f'<a href="/admin/teaching/cohort/{cohort.pk}/to-check/">The answers to check</a>' in html
    )


def test_key_change_page_in_spanish(client, cohort, instructor):
    client.force_login(instructor)
    client.post("/language/", {"language": "es", "next": "/"})

    html = " ".join(client.get(page_url(cohort, target())).content.decode().split())

    assert "Cambio de clave para q-19-05" in html
    assert "Respondida en las páginas en inglés; la respuesta se lee en los dos idiomas" in html
    assert (
        "Prueba sobre 4 respuestas guardadas a esta pregunta de los estudiantes de tus cohortes"
        in html
    )


@pytest.mark.parametrize("language", ["en", "es"])
def test_key_change_page_says_which_file_to_edit_and_what_to_run(
    client, cohort, instructor, language
):
    """A UX walk: "paste the line over the mention's line in the YAML, then import and
    regrade" named no file and no command, and a line pasted without its indentation
    fails the import with "did not find expected key"."""
    client.force_login(instructor)
    client.post("/language/", {"language": language, "next": "/"})

    html = " ".join(client.get(page_url(cohort, target())).content.decode().split())

    words = {
        "en": ("keeping the spaces before its “-”", "Key changes</a> then shows"),
        "es": ("conservando los espacios antes de su «-»", "Cambios de clave</a> muestra"),
    }[language]
    assert "<code>data/quizzes/phase-19-training-dynamics.yaml</code>" in html
    assert "<code>expected:</code>" in html and " q-19-05," in html
    assert words[0] in html
    assert "<code>manage.py import_quizzes --dry-run</code>" in html
    assert f'<a href="/admin/quizzes/question/key-changes/">{words[1]}' in html


def test_key_change_page_of_another_cohort_is_404(client, cohort, instructor):
    zed = Attempt.objects.get(learner__username="zed")
    other = Cohort.objects.get(name="Autumn")
    client.force_login(instructor)

    via_other = client.get(page_url(other, zed))
    via_own = client.get(page_url(cohort, zed))
    choice = client.get(
        page_url(cohort, answer(cohort.learners.get(username="ana"), "q-10-01", keys=["A"]))
    )

    assert (via_other.status_code, via_own.status_code, choice.status_code) == (404, 404, 404)


def test_drill_down_links_a_wrong_free_answer_to_its_key_change(client, cohort, instructor):
    ana = Attempt.objects.get(learner__username="ana")
    cid = Attempt.objects.get(learner__username="cid")  # right: nothing to propose
    client.force_login(instructor)

    ana_page = client.get(f"/admin/teaching/cohort/{cohort.pk}/results/learner/{ana.learner_id}/")
    cid_page = client.get(f"/admin/teaching/cohort/{cohort.pk}/results/learner/{cid.learner_id}/")

    assert f'href="{page_url(cohort, ana)}">Key change…</a>' in ana_page.content.decode()
    assert "Key change…" not in cid_page.content.decode()


def test_the_words_proposed_are_the_ones_that_make_the_answer_right(seeds_imported):
    """A UX walk's case: the answer's unmatched words in a row ("cuando pérdida supera
    media móvil más") were not read as the mention; each phrase proposed now is, and
    none is made only of the question's words ("pérdida": the prompt's "loss")."""
    sofia = UserFactory(username="sofia")
    text = "cuando la pérdida supera la media móvil en más de tres veces la desviación"
    attempt = answer(sofia, "q-19-02", text=text)

    proposal = key_proposal(attempt=attempt, learner_ids=None)

    phrases = [change.phrase for change in proposal.changes]
    assert proposal.right_now is False
    assert len(phrases) == 3 and "tres veces" in phrases
    assert "cuando la pérdida" not in phrases
    assert all(change.answer_right and change.number == 1 for change in proposal.changes)


def test_a_change_that_cannot_suffice_says_other_mentions_are_missing(seeds_imported):
    dan = UserFactory(username="dan")
    attempt = answer(dan, "q-19-05", text="it is what matters most here")

    proposal = key_proposal(attempt=attempt, learner_ids=None)

    assert proposal.changes
    assert all(c.others_missing and not c.answer_right for c in proposal.changes)


@pytest.mark.parametrize(
    "text", ["because the layer norm sits before it", "porque la capa norm va antes"]
)
def test_no_proposed_phrase_starts_with_a_connective(text):
    # Pasted as is, "because the layer" would find any answer that opens with it.
    phrases = candidate_phrases(text=text, covered=[])

    assert phrases
    assert not any(p.split()[0] in ("because", "porque") for p in phrases)
    assert phrases[0] in ("layer norm", "capa norm")


def test_no_proposed_phrase_only_repeats_the_question():
    # Added to the key, "rare token" would find any answer that restates the question.
    prompt = "Why does the rare token's embedding row dominate the gradient norm?"

    phrases = candidate_phrases(
        text="the rare token gets a large update", covered=[], prompt=prompt
    )

    assert "rare token" not in phrases
    assert phrases[0] == "large update"


def test_no_proposed_phrase_starts_or_ends_at_a_symbol():
    # Red-team run 11: "=cmd|' /c" was proposed from an answer opening "=cmd|' /C calc'",
    # a formula sign, not a word, at the head of the key's new phrasing.
    text = "=cmd|' /C calc'!A0 takes over x = y ="

    phrases = candidate_phrases(text=text, covered=[])

    assert phrases and "cmd|' /c" in phrases
    assert not [p for p in phrases if p.startswith("=") or p.endswith("=")]
    assert "=" not in leftover_phrase(text=text, covered=[]).split()


def test_every_phrase_proposed_is_an_alternative_the_importer_takes():
    # Red-team run 11: stop words between the answer's words made runs of any length
    # (129 characters here, 2,800 words in an answer of "de"), so the YAML line to paste
    # was one the importer refuses (100 characters, 20 words an alternative), and
    # finding them read each stop word again for every word before it: 1.5 s an answer.
    runs = " ".join(f"{w}q" + " the" * 30 for w in ("bc", "df", "gh", "jk", "lm", "np"))
    stop_words = "zzkw " + "de " * 3300 + "wqx"
    long_word = "a" * 150 + " takes over"

    for text in (runs, stop_words, long_word):
        phrases = candidate_phrases(text=text, covered=[])
        phrases.append(leftover_phrase(text=text, covered=[]))

        assert phrases
        assert all(len(p) <= 100 and len(words(p)) <= 20 for p in phrases)


def test_a_phrase_may_open_with_a_negation_cue(seeds_imported):
    """A UX walk's case: "sin cambios" is the idea ("unchanged") the key missed, and keys
    say it so ("sin escalar"); without it the only phrase proposed was "gradiente pasa",
    which would turn right any answer in which the gradient passes anywhere."""
    sofia = UserFactory(username="sofia")
    text = "el gradiente pasa sin cambios por el residual"
    attempt = answer(sofia, "q-10-03", text=text)

    proposal = key_proposal(attempt=attempt, learner_ids=None)

    phrases = [change.phrase for change in proposal.changes]
    assert "sin cambios" in phrases
    assert all(change.answer_right for change in proposal.changes)
    # Never a cue alone, nor one inside a phrase.
    english = candidate_phrases(text="it passes without rescaling, not scaled", covered=[])
    assert "without rescaling" in english and "not scaled" in english
    cues = {"without", "not"}
    assert not any(p in cues or cues & set(p.split()[1:]) for p in english)


@pytest.mark.parametrize(
    ("text", "expression"),
    [
        ("sin embargo el gradiente no cambia", "sin embargo"),
        ("sin duda el gradiente pasa", "sin duda"),
        ("not only the gradient passes", "not only"),
    ],
)
def test_an_expression_that_denies_nothing_opens_no_phrase(text, expression):
    # "sin embargo" is "however", not "without embargo": as a phrase of the key it would
    # find any answer that says "however". The grader reads these as no cue
    # (vocabulary.yaml, not_negations), so the proposal does not open a run with them.
    phrases = candidate_phrases(text=text, covered=[])

    assert phrases
    assert not [p for p in phrases if p.startswith(expression.split()[0] + " ")]


def test_leftover_words_that_make_the_answer_right_are_not_called_not_found(
    client, seeds_imported, instructor
):
    """Instructor walk 32: "el token raro tiene un gradiente enorme" on q-19-05 gets no
    run to propose ("token raro" is the prompt's "rare token"), so the page offers the
    leftover words; they do make this answer right (the dry run counted it wrong → right)
    while the page said "still not found with these words"."""
    cohort = Cohort.objects.create(name="Walk")
    cohort.instructors.add(instructor)
    carla = UserFactory(username="carla")
    cohort.learners.add(carla)
    attempt = answer(carla, "q-19-05", text="el token raro tiene un gradiente enorme")

    proposal = key_proposal(attempt=attempt, learner_ids=[carla.pk])
    client.force_login(instructor)
    html = " ".join(client.get(page_url(cohort, attempt)).content.decode().split())

    assert "still not found with these words" not in html
    assert html.count("right, but these words are no phrase to propose") == 2
    assert [c.phrase for c in proposal.changes] == ["token raro", "token raro"]
    assert all(c.leftover_right and not c.answer_right for c in proposal.changes)
    assert all(c.to_right == 1 for c in proposal.changes)  # this very answer


def test_a_negated_mention_does_not_say_no_words_would_help_when_another_can(seeds_imported):
    """Author walk 4: with a mention read as negated but another missed one enough to make
    the answer right (q-19-05 needs 2 of 3), marking it right said "No words added to the
    key would make this answer right", while the key change page it linked proposed
    phrases that do, each turning this very answer right."""
    ana = UserFactory(username="ana")
    text = "the embedding row takes over the norm, the gradient is not large"
    attempt = answer(ana, "q-19-05", text=text)

    proposal = key_proposal(attempt=attempt, learner_ids=None)
    note = key_change_note(attempt=attempt, url="/key-change/")

    assert proposal.negated == [2]
    assert any(c.answer_right for c in proposal.changes)
    assert "The key missed this answer." in note
    assert "No words added" not in note


def test_a_negated_mention_that_no_other_can_replace_still_says_no_words_help(seeds_imported):
    ana = UserFactory(username="ana")
    attempt = answer(ana, "q-10-03", text="it is not the identity")

    assert "No words added" in key_change_note(attempt=attempt, url="/key-change/")


@pytest.mark.parametrize(
    "text",
    [
        "The rare token's vector gets a massive update, so that update swamps the total.",
        "A rarely seen token has a lookup vector; during the step its update is gigantic, "
        "so it swamps everything.",
    ],
)
def test_with_other_mentions_missing_each_phrase_finds_its_mention(seeds_imported, text):
    """Author walk 4: an answer that found no mention of three got, for each of them, the
    same leftover words ("rare token vector massive update swamps"), run across a clause
    break, so pasted they found nothing in the very answer, while the page said "still
    wrong: other mentions are missing". Each phrase proposed now finds its mention there,
    one for each mention to fill."""
    attempt = answer(UserFactory(username="ana"), "q-19-05", text=text)

    proposal = key_proposal(attempt=attempt, learner_ids=None)

    assert proposal.changes
    for change in proposal.changes:
        expected = [list(m) for m in proposal.revision.expected]
        expected[change.index].append(change.phrase)
        graded = _graded(proposal.revision, text, expected)
        assert change.others_missing and not change.answer_right
        assert graded.mentions[change.index].status == "found", change.phrase


def test_the_page_says_when_no_one_change_suffices(client, cohort, instructor):
    dan = Attempt.objects.get(learner__username="dan")  # one mention of the two needed
    other = answer(dan.learner, "q-19-05", text="It swamps everything, so training stalls.")
    client.force_login(instructor)

    one = client.get(page_url(cohort, dan)).content.decode()
    several = " ".join(client.get(page_url(cohort, other)).content.decode().split())

    assert "No one change makes this answer right" not in one
    assert "No one change makes this answer right: more than one mention is missing." in several
    # Not beside the help that says each phrase makes the answer right (author walk 4).
    assert "that no mention matched and that makes it right once added" not in several


def test_the_page_says_where_the_answer_negates_a_mention(client, cohort, instructor):
    """Author walk 4: "Mention 1 is there but read as negated" left the instructor to find
    which of the answer's words were read so ("usa", found by the key's 'no se usa',
    a phrasing too short), which is what the key's author must edit."""
    attempt = answer(
        cohort.learners.get(username="ana"),
        "q-19-05",
        text="the embedding row takes over the norm, the gradient is not large",
    )
    client.force_login(instructor)

    html = " ".join(client.get(page_url(cohort, attempt)).content.decode().split())

    assert (
        "Mention 2 is there but read as negated, where the answer says “gradient … large”:"
        " adding words does not change that." in html
    )


@pytest.mark.parametrize(
    "text",
    [
        "Cada posición solo mira hacia atrás; si no, el modelo vería la respuesta.",
        "The logits blow up with the dimension, so softmax puts all weight on one key.",
    ],
)
def test_no_proposed_phrase_runs_across_a_clause_break(text):
    """Author walk 4: "atrás; si" was proposed, a run over a semicolon: the grader reads a
    phrasing's words within one clause, and a key line with "; si" in it is no way of
    saying an idea."""
    phrases = candidate_phrases(text=text, covered=[])

    assert phrases
    assert not [p for p in phrases if any(mark in p for mark in ",;:.")]
