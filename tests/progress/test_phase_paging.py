"""A phase of hundreds of questions: paged cards, an index of them all, links that land."""

import re

import pytest

from progress.models import LearnerQuestion
from tests.factories import answer
from tests.html import article, form_token

pytestmark = pytest.mark.django_db

PAGE_BYTES = 250_000


def _articles(html: str) -> list[str]:
    return re.findall(r'<article class="question" id="([^"]+)"', html)


def _index(html: str) -> list[tuple[str, str, str]]:
    """The index's links as (href, accessible name, visible text)."""
    box = re.search(r'<ol class="question-index">.*?</ol>', html, re.S).group(0)
    return re.findall(r'<a href="([^"]+)"[^>]* aria-label="([^"]+)">([^<]+)</a>', box)


def _continue_href(html: str) -> str:
    return re.search(r'<a class="button" href="([^"]+)">(?:Continue|Start): question', html)[1]


def test_phase_of_740_questions_pages_stay_small_and_continue_lands_on_first_unanswered(
    make_phase, learner_client, learner
):
    codes = make_phase(740)
    for code in codes[:60]:
        answer(learner, code, keys=["A"], text="zebraword")

    pages = [learner_client.get("/phase/1/")]
    pages += [learner_client.get(f"/phase/1/?page={n}") for n in range(2, 31)]
    target = learner_client.get(_continue_href(pages[0].content.decode()))

    sizes = [len(response.content) for response in pages]
    assert max(sizes) <= PAGE_BYTES, sizes
    shown = [_articles(response.content.decode()) for response in pages]
    assert [len(codes_shown) for codes_shown in shown] == [25] * 29 + [15]
    assert [code for page in shown for code in page] == codes
    assert _continue_href(pages[0].content.decode()) == "/phase/1/?page=3#q-01-60"
    html = target.content.decode()
    assert _articles(html)[10] == "q-01-60"
    assert form_token(html, "q-01-60") is not None  # unanswered: its form is there
    assert form_token(html, "q-01-59") is None  # answered: its feedback


def test_phase_index_shows_every_question_with_its_effective_verdict(
    make_phase, learner_client, learner
):
    codes = make_phase(30)
    answer(learner, codes[0], keys=["A"])  # right
    answer(learner, codes[1], keys=["B"])  # wrong
    answer(learner, codes[27], keys=["A"])  # right, then a regrade made it wrong:
    # the standing keeps the effective verdict, as the regrade leaves it.
    LearnerQuestion.objects.filter(question__code=codes[27]).update(latest_correct=False)

    html = learner_client.get("/phase/1/").content.decode()

    links = _index(html)
    assert len(links) == 30
    assert links[:3] == [
        ("#q-01-00", "1 (q-01-00): right", "1"),
        ("#q-01-01", "2 (q-01-01): wrong", "2"),
        ("#q-01-02", "3 (q-01-02): unanswered", "3"),
    ]
    assert links[25] == ("?page=2#q-01-25", "26 (q-01-25): unanswered", "26")
    assert links[27] == ("?page=2#q-01-27", "28 (q-01-27): wrong", "28")
    assert "3 of 30 answered, 1 right" in " ".join(html.split())


def test_phase_index_links_are_named_by_the_number_they_show(make_phase, learner_client):
    """(UX walk 36) A link showing "2" was named "2 (q-01-01): wrong": someone who says what
    they see ("click 2", WCAG 2.5.3 Label in Name) reached nothing. Its name now starts
    with the number shown."""
    make_phase(3)

    links = _index(learner_client.get("/phase/1/").content.decode())

    assert [(name.startswith(f"{text} "), text) for _href, name, text in links] == [
        (True, "1"),
        (True, "2"),
        (True, "3"),
    ]


def test_phase_index_speaks_spanish(make_phase, learner_client, learner):
    codes = make_phase(2)
    answer(learner, codes[0], keys=["A"])
    learner_client.post("/language/", {"language": "es", "next": "/"})

    html = learner_client.get("/phase/1/").content.decode()

    assert [name for _href, name, _text in _index(html)] == [
        "1 (q-01-00): correcta",
        "2 (q-01-01): sin responder",
    ]
    assert "Continuar: pregunta 2" in html


def test_last_card_of_a_page_leads_to_the_next_pages_first_question(
    make_phase, learner_client, learner
):
    codes = make_phase(30)
    for code in codes[23:25]:
        answer(learner, code, keys=["A"], text="zebraword")

    html = learner_client.get("/phase/1/").content.decode()

    assert 'href="#q-01-24" data-next' in article(html, "q-01-23")
    assert 'href="/phase/1/?page=2#q-01-25" data-next' in article(html, "q-01-24")
    assert '<a class="button" href="/phase/1/?page=2" rel="next">Next page</a>' in html


def test_htmx_feedback_on_a_pages_last_question_links_to_the_next_page(make_phase, learner_client):
    make_phase(30)

    def feedback(code: str) -> str:
        form = learner_client.get(f"/question/{code}/form/", headers={"HX-Request": "true"})
        token = form_token(form.content.decode(), code)
        return learner_client.post(
            f"/question/{code}/answer/",
            {"token": token, "choice": ["A"], "text": "zebraword"},
            headers={"HX-Request": "true"},
        ).content.decode()

    assert 'href="#q-01-24" data-next' in feedback("q-01-23")
    assert 'href="/phase/1/?page=2#q-01-25" data-next' in feedback("q-01-24")
    assert 'href="#q-01-26" data-next' in feedback("q-01-25")


def test_answer_without_htmx_redirects_to_the_page_holding_the_question(make_phase, learner_client):
    make_phase(30)
    html = learner_client.get("/phase/1/?page=2").content.decode()

    response = learner_client.post(
        "/question/q-01-27/answer/", {"token": form_token(html, "q-01-27"), "choice": ["A"]}
    )

    assert response["Location"] == "/phase/1/?page=2#q-01-27"
    landed = learner_client.get(response["Location"]).content.decode()
    assert "your pick, right" in article(landed, "q-01-27")


def test_answer_again_shows_the_page_holding_the_question_with_its_form(
    make_phase, learner_client, learner
):
    codes = make_phase(30)
    answer(learner, codes[28], keys=["B"])

    html = learner_client.get("/phase/1/?again=q-01-28").content.decode()

    assert _articles(html)[0] == "q-01-25"
    assert form_token(html, "q-01-28") is not None
    assert "Page 2 of 2" in html


@pytest.mark.parametrize(("query", "first"), [("page=x", "q-01-00"), ("page=99", "q-01-25")])
def test_phase_page_number_out_of_range_or_garbage_is_clamped(
    make_phase, learner_client, query, first
):
    make_phase(30)

    html = learner_client.get(f"/phase/1/?{query}").content.decode()

    assert _articles(html)[0] == first


@pytest.mark.parametrize("count", [2, 50])
def test_phase_page_queries_stay_fixed_whatever_the_cards_on_a_page(
    make_phase, learner_client, learner, django_assert_num_queries, settings, count
):
    settings.PHASE_PAGE_SIZE = count
    codes = make_phase(count * 3)  # three pages of `count` cards
    for code in codes[::2]:  # every other card answered: each page shows both kinds
        answer(learner, code, keys=["A"], text="zebraword")

    # The eight of a page with answers (no drafts; its review cards included), and the
    # session's three (read for the tokens of the forms, saved with them).
    with django_assert_num_queries(11):
        response = learner_client.get("/phase/1/?page=2")

    html = response.content.decode()
    assert _articles(html) == codes[count : 2 * count]
    assert len(_index(html)) == count * 3


def test_index_query_in_sql_agrees_with_the_orm(make_phase, learner):
    """The index's hand-written SQL against the same question asked of the ORM: active
    questions in order, this learner's verdict, drafts of each kind, nobody else's."""
    from django.utils import timezone

    from progress.models import Draft
    from progress.phase_selectors import _phase_rows
    from quizzes.models import Phase, Question
    from tests.factories import UserFactory

    codes = make_phase(8)
    other = UserFactory()
    answer(learner, codes[0], keys=["A"], text="zebraword")  # right
    answer(learner, codes[1], keys=["B"], text="nothing")  # wrong
    answer(other, codes[2], keys=["A"], text="zebraword")
    questions = {q.code: q for q in Question.objects.filter(code__in=codes)}
    for code, owner, logged_out in [
        (codes[3], learner, False),
        (codes[4], learner, True),
        (codes[5], learner, False),
        (codes[5], learner, True),
        (codes[6], other, False),
    ]:
        Draft.objects.create(
            learner=owner, question=questions[code], answer={"keys": ["A"]}, logged_out=logged_out
        )
    Question.objects.filter(code=codes[7]).update(retired_at=timezone.now())
    phase = Phase.objects.get(number=1)

    expected = []
    for question in Question.objects.active().filter(phase=phase).order_by("position"):
        standing = LearnerQuestion.objects.filter(learner=learner, question=question).first()
        drafts = Draft.objects.filter(learner=learner, question=question)
        expected.append(
            (
                question.code,
                (question.pk, question.current_revision_id),
                None if standing is None else standing.latest_correct,
                drafts.filter(logged_out=False).exists(),
                drafts.filter(logged_out=True).exists(),
            )
        )

    rows = [tuple(row) for row in _phase_rows(learner=learner, phase=phase)]

    assert rows == expected
    assert [row[2:] for row in rows[:7]] == [
        (True, False, False),
        (False, False, False),
        (None, False, False),
        (None, True, False),
        (None, False, True),
        (None, True, True),
        (None, False, False),
    ]


def test_active_phase_in_sql_is_the_active_phase_of_that_number(make_phase, learner_client):
    from django.utils import timezone

    from progress.phase_selectors import active_phase
    from quizzes.models import Phase

    make_phase(2, number=1)
    make_phase(2, number=2)
    Phase.objects.filter(number=2).update(retired_at=timezone.now())

    assert active_phase(1) == Phase.objects.active().get(number=1)
    assert active_phase(1).title_texts == Phase.objects.get(number=1).title_texts
    assert active_phase(2) is None and active_phase(3) is None
    assert learner_client.get("/phase/2/").status_code == 404


def test_question_to_answer_is_the_question_with_its_phase_and_current_revision(
    make_phase, tmp_path
):
    from io import StringIO

    from django.core.management import call_command
    from django.utils import timezone

    from progress.phase_selectors import question_to_answer
    from quizzes.models import Question

    codes = make_phase(3)

    def orm(code):
        return Question.objects.select_related("phase", "current_revision").get(code=code)

    for code in codes:
        ours, django = question_to_answer(code), orm(code)
        assert (ours.pk, ours.code, ours.position, ours.retired_at) == (
            django.pk,
            django.code,
            django.position,
            django.retired_at,
        )
        assert ours.phase == django.phase and ours.phase.number == django.phase.number
        mine, theirs = ours.current_revision, django.current_revision
        assert (mine.pk, mine.question_id, mine.content_hash, mine.number) == (
            theirs.pk,
            theirs.question_id,
            theirs.content_hash,
            theirs.number,
        )
        assert mine.options == theirs.options
    assert question_to_answer("q-nope") is None

    Question.objects.filter(code=codes[1]).update(retired_at=timezone.now())
    assert question_to_answer(codes[1]).is_retired

    # An edit makes a new revision: the process's map must not answer with the old one.
    free = Question.objects.filter(code__in=codes, current_revision__kind="free")[0].code
    before = question_to_answer(free).current_revision
    source = next((tmp_path / "generated").glob("*.yaml"))
    source.write_text(source.read_text("utf-8").replace("zebraword", "quaggaword"), "utf-8")
    call_command("import_quizzes", str(tmp_path / "generated"), stdout=StringIO())
    edited = question_to_answer(free)
    assert edited.current_revision != before
    assert edited.current_revision == orm(free).current_revision
    assert "quaggaword" in str(edited.current_revision.expected)


def test_a_kept_revision_never_answers_for_another_question(make_phase):
    """Ids can name other rows in a database made afresh (the tests' are): a revision
    kept for one question is not handed to another with the same ids and content."""
    from django.core.cache import cache

    from portal.caching import cache_key
    from progress.phase_selectors import question_to_answer
    from quizzes.models import Question

    first, second = make_phase(2)[:2]
    kept = question_to_answer(first).current_revision
    other = Question.objects.get(code=second)
    # What a process would hold after the database was made afresh under it.
    key = (other.pk, other.current_revision_id, other.current_revision.content_hash)
    cache.set(cache_key("revision", *key), kept)
    try:
        assert question_to_answer(second).current_revision.question_id == other.pk
    finally:
        cache.delete(cache_key("revision", *key))
