"""Kept (cached) pieces of the learner pages: they never carry one learner's draft,
token or picks to another, follow imports, and put together the template's markup."""

import re

import pytest

from quizzes.models import Question
from tests.factories import UserFactory, answer
from tests.html import article

pytestmark = pytest.mark.django_db


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
    assert "0 de 5 respondidas, acertadas: 0" in pages[3]
    assert "<title>Fase 10 · " in pages[3]
