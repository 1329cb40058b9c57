"""Learner pages: what they show, what they never show, and how many queries they cost."""

import hashlib
import re

import pytest

from progress.services import attempt_record
from quizzes.models import Question
from tests.factories import UserFactory
from tests.html import article

pytestmark = pytest.mark.django_db


def answer(learner, code, keys=(), text="", n=1):
    revision = Question.objects.get(code=code).current_revision
    for i in range(n):
        attempt_record(
            learner=learner,
            revision=revision,
            # Hashed: a token column holds 64 characters, which PostgreSQL enforces.
            nonce=hashlib.sha256(f"{learner.pk}-{code}-{i}-{keys}-{text}".encode()).hexdigest(),
            answer={"keys": list(keys)} if revision.kind != "free" else {"text": text},
            language="en",
        )


def says(html: str, phrase: str) -> bool:
    """Whether `phrase` stands in `html` as words ("row" is not in rows="4")."""
    return re.search(rf"(?<!\w){re.escape(phrase.lower())}(?!\w)", html.lower()) is not None


@pytest.mark.parametrize("language", ["en", "es"])
def test_phase_page_never_reveals_the_key_before_answering(
    seeds_imported, learner_client, language
):
    learner_client.post("/language/", {"language": language, "next": "/"})

    for number in (10, 19):
        html = learner_client.get(f"/phase/{number}/").content.decode()
        for question in Question.objects.filter(phase__number=number).select_related(
            "current_revision"
        ):
            revision = question.current_revision
            card = article(html, question.code)
            # No flag in any attribute, data or script, and no feedback marks.
            assert not re.search(r"correct[\"'=:]|is-right|right-pick|missed-key", card), (
                question.code
            )
            assert "<script" not in card
            assert "✓" not in card
            for text in (revision.explanation_en, revision.explanation_es):
                if text:
                    assert text[:40] not in html, question.code
            for alternatives in revision.expected:
                for alternative in alternatives:
                    assert not says(card, alternative), (question.code, alternative)


def test_phase_page_shows_kinds_with_accessible_controls(seeds_imported, learner_client):
    html = learner_client.get("/phase/10/").content.decode()

    single, multi, free = (article(html, c) for c in ("q-10-01", "q-10-02", "q-10-03"))
    assert single.count('type="radio"') == 4
    assert "<legend>Choose one answer</legend>" in single
    assert multi.count('type="checkbox"') == 4
    assert "<legend>Choose every right answer</legend>" in multi
    assert '<label class="field-label" for="q-10-03-text">Your answer</label>' in free
    assert 'id="q-10-03-text" name="text"' in free
    assert 'for="q-10-01-B"' in single and 'id="q-10-01-B"' in single
    assert "aria-live" not in single  # the focus is read after a swap: tests/browser


def test_phase_page_renders_markdown_and_escapes_html(make_phase, learner_client):
    make_phase(1)

    html = learner_client.get("/phase/1/").content.decode()

    assert "Prompt &lt;b&gt;bold&lt;/b&gt; and <code>code</code>" in html
    assert "<b>bold</b>" not in html


def test_phase_page_spanish_falls_back_to_english_per_field(seeds_imported, learner_client):
    learner_client.post("/language/", {"language": "es", "next": "/"})

    html = learner_client.get("/phase/19/").content.decode()

    card = article(html, "q-19-01")
    assert "Firma de overflow fp16" in card
    assert '<div class="md prompt" lang="en"><p>A run in fp16 with no loss scaling shows' in card
    assert "Elige una respuesta" in card
    assert '<html lang="es">' in html


def test_phase_page_shows_latest_result_and_tries(seeds_imported, learner_client, learner):
    answer(learner, "q-10-01", keys=["A"])
    answer(learner, "q-10-01", keys=["B"])

    html = learner_client.get("/phase/10/").content.decode()

    card = article(html, "q-10-01")
    assert "2 tries" in card
    assert "Right" in card
    assert 'href="#q-10-02"' in card


# session, user, phase, the index of the whole phase (which says which questions have a
# standing or drafts); then the page's standings and drafts only when there are any.
# The page's questions come from the content cache.
@pytest.mark.parametrize(
    ("count", "answered", "drafted", "queries"),
    [(1, False, False, 4), (5, False, False, 4), (5, True, False, 6), (5, True, True, 7)],
)
def test_phase_page_runs_fixed_queries(
    make_phase,
    learner_client,
    learner,
    django_assert_num_queries,
    count,
    answered,
    drafted,
    queries,
):
    from progress.services import draft_save

    codes = make_phase(count)
    if answered:  # all but the last, which may hold a draft
        for code in codes[:-1]:
            answer(learner, code, keys=["A"], text="zebraword", n=3)
    if drafted:
        question = Question.objects.get(code=codes[-1])
        draft_save(learner_id=learner.pk, question_id=question.pk, answer={"keys": ["B"]})

    learner_client.get("/phase/1/")  # the first page of a login counts the badge

    with django_assert_num_queries(queries):
        response = learner_client.get("/phase/1/")

    html = response.content.decode()
    assert html.count('class="question"') == count
    assert ("3 tries" in article(html, codes[0])) is answered
    assert ("Your unsent answer was kept" in article(html, codes[-1])) is drafted


@pytest.mark.parametrize("count", [1, 5])
def test_home_runs_fixed_queries_and_shows_progress(
    make_phase, learner_client, learner, django_assert_num_queries, count
):
    codes = make_phase(count)
    make_phase(count, number=2)
    answer(learner, codes[0], keys=["A"], text="zebraword", n=2)

    learner_client.get("/")  # the first page of a login counts the badge

    with django_assert_num_queries(5):  # session, user, phases, questions, standings
        response = learner_client.get("/")

    html = " ".join(response.content.decode().split())
    assert f"1 of {count} answered, 1 right" in html  # each phase's line
    assert f"0 of {count} answered, 0 right" in html
    expected_continue = f"/phase/1/#{codes[1]}" if count > 1 else "/phase/1/"
    assert expected_continue in html


@pytest.mark.parametrize("count", [1, 5])
def test_my_progress_runs_fixed_queries(
    make_phase, learner_client, learner, django_assert_num_queries, count
):
    for code in make_phase(count):
        answer(learner, code, keys=["B"], text="nothing", n=1)
        answer(learner, code, keys=["A"], text="zebraword", n=1)

    learner_client.get("/progress/")  # the first page of a login counts the badge

    with django_assert_num_queries(10):  # … forecast, the history's regrades, activity
        response = learner_client.get("/progress/")

    html = " ".join(response.content.decode().split())
    assert (
        f'<td data-label="Score">{count} / {count}</td>'
        f' <td data-label="Answered">{count} / {count}</td>'
        ' <td data-label="Right on first try">0%</td>'
    ) in html
    assert html.count("<time ") == 2 * count


def test_my_progress_first_try_rate_and_score(seeds_imported, learner_client, learner):
    answer(learner, "q-10-01", keys=["B"])
    answer(learner, "q-10-02", keys=["A"])
    answer(learner, "q-10-02", keys=["A", "C"])

    html = " ".join(learner_client.get("/progress/").content.decode().split())

    assert (
        '<td data-label="Score">2 / 5</td> <td data-label="Answered">2 / 5</td>'
        ' <td data-label="Right on first try">50%</td>'
    ) in html


def test_my_progress_history_shows_a_multi_answers_partial_score_as_its_card(
    seeds_imported, learner_client, learner
):
    answer(learner, "q-10-02", keys=["A"])  # one of two right keys, no wrong: 50 %

    html = " ".join(learner_client.get("/progress/").content.decode().split())
    card = " ".join(learner_client.get("/phase/10/").content.decode().split())

    assert '<td data-label="Score">50% (partial)</td>' in html
    assert "Partial score: 50%" in card


def test_learner_never_sees_another_learners_attempts(seeds_imported, learner_client, learner):
    other = UserFactory(username="bea")
    answer(other, "q-10-01", keys=["A"])

    progress = learner_client.get("/progress/").content.decode()
    phase = learner_client.get("/phase/10/").content.decode()

    assert "You have not answered any question yet." in progress
    assert "Not quite" not in phase
    assert "try" not in article(phase, "q-10-01")


def test_anonymous_visitor_is_sent_to_login(seeds_imported, client):
    for url in ("/", "/phase/10/", "/progress/", "/question/q-10-01/form/"):
        response = client.get(url)
        assert response.status_code == 302, url
        assert response["Location"].startswith("/login/?next="), url


def test_unknown_or_retired_phase_is_404(seeds_imported, learner_client):
    assert learner_client.get("/phase/99/").status_code == 404


@pytest.mark.parametrize("language", ["en", "es"])
def test_reviews_page_never_reveals_the_key_before_answering(
    seeds_imported, learner_client, learner, language
):
    from datetime import timedelta

    import time_machine
    from django.utils import timezone

    wrong = {"single": ["A"], "multi": ["D"]}
    now = timezone.now()
    with time_machine.travel(now, tick=False):
        for question in Question.objects.select_related("current_revision"):
            kind = question.current_revision.kind
            if question.code == "q-10-01":
                answer(learner, question.code, keys=["C"])
            else:
                answer(learner, question.code, keys=wrong.get(kind, []), text="no idea")
    pages = {}  # the reviews show one card at a time: walk through them all
    with time_machine.travel(now + timedelta(days=1, hours=1), tick=False):
        learner_client.force_login(learner)
        learner_client.post("/language/", {"language": language, "next": "/"})
        for _ in range(11):
            html = learner_client.get("/reviews/").content.decode()
            code = re.search(r'<article class="question" id="([^"]+)"', html)
            if code is None:
                break
            pages[code.group(1)] = html
            answer(learner, code.group(1), keys=["Z"], text="still no idea")

    shown = Question.objects.filter(review_cards__learner=learner).select_related(
        "current_revision"
    )
    assert shown.count() == 10
    assert set(pages) == {q.code for q in shown}
    for question in shown:
        revision = question.current_revision
        card = article(pages[question.code], question.code)
        assert not re.search(r"correct[\"'=:]|is-right|right-pick|missed-key", card)
        assert "✓" not in card
        for text in (revision.explanation_en, revision.explanation_es):
            if text:
                assert text[:40] not in card
        for alternatives in revision.expected:
            for alternative in alternatives:
                assert not says(card, alternative), (question.code, alternative)


@pytest.mark.parametrize("url", ["/", "/phase/10/", "/progress/", "/reviews/"])
def test_learner_pages_show_no_template_syntax(seeds_imported, learner_client, url):
    html = learner_client.get(url).content.decode()

    assert "{#" not in html and "{%" not in html and "{{" not in html


def test_phase_page_follows_an_import_that_retires_a_question(seeds_imported, learner_client):
    from io import StringIO

    from django.core.management import call_command

    assert 'id="q-10-05"' in learner_client.get("/phase/10/").content.decode()
    path = seeds_imported / "phase-10-init-norm-residuals.yaml"
    text = path.read_text("utf-8")
    path.write_text(text[: text.index("  - id: q-10-05")], "utf-8")
    call_command("import_quizzes", str(seeds_imported), stdout=StringIO())

    assert 'id="q-10-05"' not in learner_client.get("/phase/10/").content.decode()


def test_answer_again_without_javascript_starts_from_the_previous_free_answer(
    seeds_imported, learner_client, learner
):
    answer(learner, "q-10-03", text="the residual <stream> adds")

    card = article(learner_client.get("/phase/10/?again=q-10-03").content.decode(), "q-10-03")

    assert "the residual &lt;stream&gt; adds</textarea>" in card


@pytest.mark.parametrize(
    ("language", "next_review"), [("en", "Next review tomorrow."), ("es", "Próximo repaso mañana.")]
)
def test_phase_page_says_when_an_answered_question_comes_back(
    seeds_imported, learner_client, learner, language, next_review
):
    answer(learner, "q-10-01", keys=["A"])  # wrong: a card, due tomorrow
    answer(learner, "q-10-04", keys=["B"])  # right first time: no card
    learner_client.post("/language/", {"language": language, "next": "/"})

    html = learner_client.get("/phase/10/").content.decode()

    wrong, right = article(html, "q-10-01"), article(html, "q-10-04")
    assert f'<p class="review-note">\n      {next_review}\n    </p>' in wrong
    assert "review-note" not in right


@pytest.mark.parametrize(
    ("language", "note"),
    [
        ("en", "Your unsent answer was kept."),
        ("es", "Tu respuesta sin enviar se ha guardado."),
    ],
)
def test_phase_page_shows_a_draft_on_an_answered_question(
    seeds_imported, learner_client, learner, language, note
):
    from progress.services import draft_save

    answer(learner, "q-10-03", text="skip connection")
    draft_save(
        learner_id=learner.pk,
        question_id=Question.objects.get(code="q-10-03").pk,
        answer={"text": "identity path, second go"},
    )
    learner_client.post("/language/", {"language": language, "next": "/"})

    card = article(learner_client.get("/phase/10/").content.decode(), "q-10-03")

    assert ">\nidentity path, second go</textarea>" in card
    assert note in card
    assert "Not quite" not in card and "No exactamente" not in card


@pytest.mark.parametrize(
    ("answered", "correct", "status"),
    [(0, 0, "new"), (1, 1, "started"), (3, 0, "done"), (3, 2, "done"), (3, 3, "mastered")],
)
def test_a_phase_all_answered_is_mastered_only_when_all_right(answered, correct, status):
    from progress.selectors.overview import PhaseProgress

    progress = PhaseProgress(phase=None, total=3, answered=answered, correct=correct)

    assert progress.status == status
