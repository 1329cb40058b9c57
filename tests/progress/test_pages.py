"""Learner pages: what they show, what they never show, and how many queries they cost."""

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
            nonce=f"{learner.pk}-{code}-{i}-{keys}-{text}",
            answer={"keys": list(keys)} if revision.kind != "free" else {"text": text},
            language="en",
        )


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
                    assert alternative.lower() not in card.lower(), (question.code, alternative)


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
    assert 'aria-live="polite"' in single


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
    assert f"<td>{count} / {count}</td> <td>{count} / {count}</td> <td>0%</td>" in html
    assert html.count("<time ") == 2 * count


def test_my_progress_first_try_rate_and_score(seeds_imported, learner_client, learner):
    answer(learner, "q-10-01", keys=["B"])
    answer(learner, "q-10-02", keys=["A"])
    answer(learner, "q-10-02", keys=["A", "C"])

    html = " ".join(learner_client.get("/progress/").content.decode().split())

    assert "<td>2 / 5</td> <td>2 / 5</td> <td>50%</td>" in html


def test_my_progress_history_shows_a_multi_answers_partial_score_as_its_card(
    seeds_imported, learner_client, learner
):
    answer(learner, "q-10-02", keys=["A"])  # one of two right keys, no wrong: 50 %

    html = " ".join(learner_client.get("/progress/").content.decode().split())
    card = " ".join(learner_client.get("/phase/10/").content.decode().split())

    assert "<td>50% (partial)</td>" in html
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
                assert alternative.lower() not in card.lower(), (question.code, alternative)


def test_my_progress_draws_the_last_four_weeks_of_activity(seeds_imported, learner_client, learner):
    from datetime import timedelta

    import time_machine
    from django.utils import timezone

    now = timezone.now()
    with time_machine.travel(now - timedelta(days=2), tick=False):
        answer(learner, "q-10-01", keys=["B"])  # right
        answer(learner, "q-10-02", keys=["A"])  # wrong
    with time_machine.travel(now - timedelta(days=40), tick=False):
        answer(learner, "q-10-04", keys=["B"])  # too old to show

    html = " ".join(learner_client.get("/progress/").content.decode().split())

    assert html.count('class="bar-total"') == 1
    assert html.count('class="bar-right"') == 1
    assert '<desc id="activity-desc">2 answers, 1 right.</desc>' in html
    assert ": 2 answers, 1 right</title>" in html


def test_the_activity_legend_agrees_in_number_in_spanish(seeds_imported, learner_client, learner):
    answer(learner, "q-10-01", keys=["B"])
    learner_client.post("/language/", {"language": "es", "next": "/"})

    html = " ".join(learner_client.get("/progress/").content.decode().split())

    assert (
        '<span class="key-right"></span> acertadas · <span class="key-total"></span> no acertadas'
        in html
    )


@pytest.mark.parametrize("url", ["/", "/phase/10/", "/progress/", "/reviews/"])
def test_learner_pages_show_no_template_syntax(seeds_imported, learner_client, url):
    html = learner_client.get(url).content.decode()

    assert "{#" not in html and "{%" not in html and "{{" not in html


def test_cached_options_never_carry_one_learners_draft_to_another(seeds_imported, client):
    from progress.services import draft_save
    from tests.factories import UserFactory

    ana, bea = UserFactory(username="ana"), UserFactory(username="bea")
    question = Question.objects.get(code="q-10-01")
    client.force_login(bea)
    client.get("/phase/10/")  # bea's page fills the cache of q-10-01's options
    draft_save(learner_id=ana.pk, question_id=question.pk, answer={"keys": ["C"]})
    client.force_login(ana)
    ana_page = client.get("/phase/10/").content.decode()
    client.force_login(bea)

    bea_page = client.get("/phase/10/").content.decode()

    assert 'value="C" id="q-10-01-C" checked' in ana_page
    assert "checked" not in article(bea_page, "q-10-01")


def test_phase_page_follows_an_import_that_retires_a_question(seeds_imported, learner_client):
    from io import StringIO

    from django.core.management import call_command

    assert 'id="q-10-05"' in learner_client.get("/phase/10/").content.decode()
    path = seeds_imported / "phase-10-init-norm-residuals.yaml"
    text = path.read_text("utf-8")
    path.write_text(text[: text.index("  - id: q-10-05")], "utf-8")
    call_command("import_quizzes", str(seeds_imported), stdout=StringIO())

    assert 'id="q-10-05"' not in learner_client.get("/phase/10/").content.decode()


def test_a_card_head_kept_per_revision_shows_its_own_questions_code(seeds_imported):
    """The kept head prints the question's code, which the content hash does not
    cover: two questions with the same revision ids and content (a database made
    afresh under a running process) must not share it."""
    from progress.templatetags.card_pieces import card_head

    question = Question.objects.select_related("current_revision").get(code="q-10-01")
    assert '<span class="q-code">q-10-01</span>' in card_head(question)

    question.code = "q-99-01"  # same ids and content, another code

    head = card_head(question)
    assert '<h2 id="q-99-01-title"><span class="q-code">q-99-01</span>' in head
    assert "q-10-01" not in head


def test_kept_forms_carry_this_requests_token_and_csrf_value(seeds_imported):
    """Untouched forms are kept per revision with markers for the token and the CSRF
    value: each learner's page gets its own, and a form posted as the browser would
    (CSRF checks on, no header) is accepted."""
    from django.test import Client

    from progress.models import Attempt
    from tests.html import form_token

    pages, tokens = {}, {}
    for name in ("ana", "bea"):
        client = Client(enforce_csrf_checks=True)
        client.force_login(UserFactory(username=name))
        html = client.get("/phase/10/").content.decode()
        pages[name], tokens[name] = (client, html), form_token(html, "q-10-01")
        assert "\x00" not in html
    assert tokens["ana"] != tokens["bea"]
    assert tokens["ana"] not in pages["bea"][1]

    client, html = pages["bea"]
    card = article(html, "q-10-01")
    csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', card).group(1)
    response = client.post(
        "/question/q-10-01/answer/",
        {"csrfmiddlewaretoken": csrf, "token": tokens["bea"], "choice": "B"},
    )

    assert response.status_code == 302
    assert Attempt.objects.get().learner.username == "bea"


def test_a_form_with_a_draft_is_rendered_for_its_learner_not_kept(seeds_imported, client):
    from progress.services import draft_save

    ana = UserFactory(username="ana")
    question = Question.objects.get(code="q-10-03")  # free text
    client.force_login(ana)
    client.get("/phase/10/")  # the untouched form is kept
    draft_save(learner_id=ana.pk, question_id=question.pk, answer={"text": "my <own> words"})

    card = article(client.get("/phase/10/").content.decode(), "q-10-03")

    assert "my &lt;own&gt; words</textarea>" in card
    assert "Your unsent answer was kept" in card


def test_kept_feedback_lists_show_each_learner_their_own_picks(seeds_imported, client):
    """q-10-02 takes several answers: each learner's list and partial score follow
    their own picks, whoever's page filled the kept piece first."""
    ana, bea = UserFactory(username="ana"), UserFactory(username="bea")
    answer(ana, "q-10-02", keys=["A", "D"])
    answer(bea, "q-10-02", keys=["A"])
    pages = {}
    for learner in (ana, bea, ana):
        client.force_login(learner)
        pages[learner.username] = " ".join(
            article(client.get("/phase/10/").content.decode(), "q-10-02").split()
        )

    picked = {
        name: re.findall(r'<li class="(?:right|wrong)-pick"><span class="key">(\w)\.', page)
        for name, page in pages.items()
    }
    assert picked == {"ana": ["A", "D"], "bea": ["A"]}
    assert pages["ana"].count("Partial score") == 1 and pages["bea"].count("Partial score") == 1
    assert re.search(r"Partial score: (\d+%)", pages["ana"]).group(1) != re.search(
        r"Partial score: (\d+%)", pages["bea"]
    ).group(1)


def test_kept_fields_hold_no_form_token_or_csrf_value(seeds_imported, client, monkeypatch):
    """What is kept of an untouched form is its fields: the `<form>` with its CSRF and
    token lines is rendered for each request around them, nothing substituted in."""
    from django.core.cache import cache

    from portal import caching
    from tests.html import form_token

    kept = []

    class Recording:
        def get(self, key, default=None):
            return default  # every piece is rendered and kept afresh

        def set(self, key, value, *args):
            kept.append(value)
            cache.set(key, value, *args)

    monkeypatch.setattr(caching, "cache", Recording())
    caching.front_clear()
    client.force_login(UserFactory(username="ana"))
    html = client.get("/phase/10/").content.decode()
    token = form_token(html, "q-10-03")
    # A card's start and fields are kept together, as a pair.
    pieces = [p for v in kept for p in (v if isinstance(v, tuple) else (v,)) if isinstance(p, str)]
    fields = [piece for piece in pieces if "Check answer" in piece]

    assert len(fields) == html.count('<form class="answer-form"')
    for piece in pieces:
        assert "csrfmiddlewaretoken" not in piece and token not in piece
    for piece in fields:
        assert "<form" not in piece and "csrfmiddlewaretoken" not in piece
        assert 'name="token"' not in piece and token not in piece
        assert piece in html
    assert html.count(f'name="token" value="{token}"') == 1


def test_kept_fields_follow_the_script_prefix_of_their_links(seeds_imported, learner_client):
    """The free-text field posts its draft to a reversed URL: a site served under a
    path gets its own kept fields, not the ones reversed without the prefix."""
    from django.urls import set_script_prefix

    learner_client.get("/phase/10/")  # kept without a prefix
    set_script_prefix("/portal/")  # as the WSGI handler sets it from SCRIPT_NAME
    try:
        html = learner_client.get("/phase/10/").content.decode()
    finally:
        set_script_prefix("/")

    assert 'action="/portal/question/q-10-03/answer/"' in article(html, "q-10-03")
    assert 'data-hx-post="/portal/question/q-10-03/draft/"' in article(html, "q-10-03")


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

    assert ">identity path, second go</textarea>" in card
    assert note in card
    assert "Not quite" not in card and "No exactamente" not in card


def _lines(html: str) -> list[str]:
    """`html`'s lines without their indentation and the blank ones."""
    return [line.strip() for line in html.splitlines() if line.strip()]


@pytest.mark.parametrize("context", ["", "reviews"])
def test_an_untouched_card_put_together_is_the_templates_card(seeds_imported, learner, context):
    """{% form_card %} joins kept pieces and the request's lines into the markup the
    template's question-card renders, for every kind of question, kept or not yet."""
    from django.template.loader import get_template

    from progress.phase_selectors import active_phase, phase_page
    from progress.templatetags.card_pieces import form_card

    page = phase_page(learner=learner, phase=active_phase(10), page=1, holding=None)
    template = get_template("progress/_question.html#question-card")
    for state in page.states * 2:  # rendered and kept, then read from the cache
        state.show_form, state.token, state.context = True, "to<k>en&", context

        together = form_card({"csrf_token": 'cs"rf'}, state)

        rendered = template.render({"state": state, "csrf_token": 'cs"rf'})
        assert _lines(together) == _lines(rendered)
        assert 'name="token" value="to&lt;k&gt;en&amp;"' in together
        assert 'name="csrfmiddlewaretoken" value="cs&quot;rf"' in together
    kinds = {state.revision.kind for state in page.states}
    assert kinds == {"single", "multi", "free"}


def test_a_phase_page_of_untouched_forms_puts_its_cards_together(
    seeds_imported, learner_client, monkeypatch
):
    """Once kept, a page of untouched forms reads one entry a card (its start and its
    fields together) and renders none of the card's template (whose head is a piece of its own);
    each card carries its own token and the page's CSRF value."""
    from progress.templatetags import card_pieces
    from tests.html import form_token

    learner_client.get("/phase/10/")
    read = []

    def recording(namespace, parts, compute):
        read.append(parts[0])
        return cached(namespace, parts, compute)

    cached = card_pieces.cached
    monkeypatch.setattr(card_pieces, "cached", recording)

    html = learner_client.get("/phase/10/").content.decode()

    assert read == ["form-card"] * 5
    tokens = [form_token(html, f"q-10-0{n}") for n in range(1, 6)]
    assert len(set(tokens)) == 5 and all(tokens)
    assert len(set(re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', html))) == 1


@pytest.mark.parametrize(
    ("answered", "correct", "status"),
    [(0, 0, "new"), (1, 1, "started"), (3, 0, "done"), (3, 2, "done"), (3, 3, "mastered")],
)
def test_a_phase_all_answered_is_mastered_only_when_all_right(answered, correct, status):
    from progress.selectors.overview import PhaseProgress

    progress = PhaseProgress(phase=None, total=3, answered=answered, correct=correct)

    assert progress.status == status


def test_phase_page_status_and_heading_are_each_learners_own_after_being_kept(
    seeds_imported, client, learner
):
    """The status line and heading are kept as fragments: each learner still sees
    their own counts and link, in their own language."""
    other = UserFactory(username="bea")
    answer(learner, "q-10-01", keys=["B"])
    pages = []

    for user, language in ((learner, "en"), (other, "en"), (learner, "en"), (other, "es")):
        client.force_login(user)
        client.post("/language/", {"language": language, "next": "/"})
        pages.append(" ".join(client.get("/phase/10/").content.decode().split()))

    for page in pages[0], pages[2]:
        assert "1 of 5 answered, 1 right" in page
        assert '<a class="button" href="#q-10-02">Continue: question 2</a>' in page
    assert "0 of 5 answered, 0 right" in pages[1]
    assert '<a class="button" href="#q-10-01">Start: question 1</a>' in pages[1]
    assert "<title>Phase 10 · LLM from scratch</title>" in pages[1]
    assert "0 de 5 respondidas, 0 correctas" in pages[3]
    assert "<title>Fase 10 · " in pages[3]
