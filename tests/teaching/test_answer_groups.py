"""Free answers grouped by normalised text in the item analysis, with effective
verdicts, and the overrides counted per question."""

import pytest

from teaching.answer_groups import GROUPS_SHOWN, answer_groups, override_counts
from teaching.models import Cohort
from teaching.selectors import cohort_learner_ids
from teaching.services import verdict_override
from tests.factories import UserFactory, answer

pytestmark = pytest.mark.django_db


@pytest.fixture
def cohort(seeds_imported, instructor):
    """Five learners on q-10-03 (key: "identity"): three phrasings of one miss, two
    of the right idea, and a staff account's answer that must not count."""
    cohort = Cohort.objects.create(name="Spring")
    cohort.instructors.add(instructor)
    texts = {
        "ana": "Skip connection",
        "bea": "skip  CONNECTION",
        "cy": "skip connection",
        "dot": "the identity path",
        "eve": "Identity",
    }
    for name, text in texts.items():
        learner = UserFactory(username=name)
        cohort.learners.add(learner)
        answer(learner, "q-10-03", text=text)
    cohort.learners.add(instructor)
    answer(instructor, "q-10-03", text="skip connection")
    return cohort


def groups_of(cohort, mode="latest"):
    from quizzes.models import Question

    question = Question.objects.get(code="q-10-03")
    return answer_groups(
        learner_ids=cohort_learner_ids(cohort), question_ids=[question.pk], mode=mode
    )[question.pk]


def test_answer_groups_merge_phrasings_by_normalised_text(cohort):
    answers = groups_of(cohort)

    assert [(g.text, g.example, g.right, g.wrong) for g in answers.groups] == [
        ("skip connection", "skip connection", 0, 3),
        ("identity", "Identity", 1, 0),
        ("the identity path", "the identity path", 1, 0),
    ]
    assert (answers.answers, answers.more) == (5, 0)


def test_answer_groups_name_their_newest_wrong_answer(cohort):
    from progress.models import Attempt

    newest_wrong = Attempt.objects.get(learner__username="cy").pk

    for mode in ("latest", "first", "all"):
        groups = groups_of(cohort, mode=mode).groups
        assert [g.wrong_attempt for g in groups] == [newest_wrong, None, None], mode


def test_answer_groups_use_the_effective_verdict(cohort, instructor):
    from progress.models import Attempt

    ana_attempt = Attempt.objects.get(learner__username="ana")
    verdict_override(
        attempt=ana_attempt, correct=True, reason="a skip is the identity", by=instructor
    )

    latest = groups_of(cohort)
    every = groups_of(cohort, mode="all")

    assert (latest.groups[0].right, latest.groups[0].wrong) == (1, 2)
    assert (every.groups[0].right, every.groups[0].wrong) == (1, 2)


def test_answer_groups_follow_the_mode(cohort):
    bea = cohort.learners.get(username="bea")
    answer(bea, "q-10-03", text="identity")

    latest = groups_of(cohort)
    first = groups_of(cohort, mode="first")
    every = groups_of(cohort, mode="all")

    assert [(g.text, g.answers) for g in latest.groups][:2] == [
        ("identity", 2),
        ("skip connection", 2),
    ]
    assert (first.groups[0].text, first.groups[0].answers) == ("skip connection", 3)
    assert every.answers == 6


def test_answer_groups_show_the_biggest_and_count_the_rest(cohort):
    for n in range(GROUPS_SHOWN + 3):
        learner = UserFactory(username=f"extra{n:02d}")
        cohort.learners.add(learner)
        answer(learner, "q-10-03", text=f"answer number {n:02d}")

    answers = groups_of(cohort)

    assert len(answers.groups) == GROUPS_SHOWN
    assert answers.groups[0].text == "skip connection"
    assert (answers.more, answers.answers) == (6, 5 + GROUPS_SHOWN + 3)


def test_override_counts_per_question(cohort, instructor):
    from progress.models import Attempt
    from quizzes.models import Question

    for attempt in Attempt.objects.filter(learner__username__in=["ana", "bea"]):
        verdict_override(attempt=attempt, correct=True, reason="same idea", by=instructor)
    ana = Attempt.objects.get(learner__username="ana")
    verdict_override(attempt=ana, correct=False, reason="changed my mind", by=instructor)
    question = Question.objects.get(code="q-10-03")

    counts = override_counts(learner_ids=cohort_learner_ids(cohort), question_ids=[question.pk])

    assert counts == {question.pk: 2}


def test_results_page_folds_answer_groups_and_counts_overrides(
    client, cohort, instructor, settings
):
    from progress.models import Attempt
    from quizzes.models import Question

    settings.RESULTS_MIN_LEARNERS = 1
    ana_attempt = Attempt.objects.get(learner__username="ana")
    verdict_override(attempt=ana_attempt, correct=True, reason="same idea", by=instructor)
    client.force_login(instructor)
    question = Question.objects.get(code="q-10-03")

    response = client.get(f"/admin/teaching/cohort/{cohort.pk}/results/?phase=10&mode=first")

    html = " ".join(response.content.decode().split())
    url = f"/admin/teaching/cohort/{cohort.pk}/results/answers/{question.pk}/?mode=first"
    assert (
        f'<details class="answers-fold" data-hx-get="{url}" data-hx-trigger="toggle once" '
        'data-hx-target="find .answers-body">' in html
    )
    assert f'<a href="{url}">Show the answers grouped by text</a>' in html
    assert '<td>5 <span class="overrides">(1 overridden)</span></td>' in html


def answers_url(cohort, code="q-10-03", mode="latest"):
    from quizzes.models import Question

    question = Question.objects.get(code=code)
    return f"/admin/teaching/cohort/{cohort.pk}/results/answers/{question.pk}/?mode={mode}"


def test_answers_fragment_for_htmx(client, cohort, instructor):
    from progress.models import Attempt

    newest_wrong = Attempt.objects.get(learner__username="cy").pk
    client.force_login(instructor)

    response = client.get(answers_url(cohort), headers={"HX-Request": "true"})

    html = " ".join(response.content.decode().split())
    assert "<html" not in html
    assert html.startswith('<table class="answer-groups"> <caption>5 answers, grouped by text')
    key_change = f"/admin/teaching/cohort/{cohort.pk}/results/attempt/{newest_wrong}/key-change/"
    assert (
        '<tr class="mostly-wrong"><td>skip connection '
        f'<a class="key-change-link" href="{key_change}">Key change…</a></td>'
        "<td>0</td><td>3</td></tr>"
    ) in html
    assert "<tr><td>Identity</td><td>1</td><td>0</td></tr>" in html


def test_answers_page_without_htmx(client, cohort, instructor):
    client.force_login(instructor)

    response = client.get(answers_url(cohort, mode="bogus"))

    html = " ".join(response.content.decode().split())
    assert "<title>Answers to q-10-03 | " in html
    assert "<tr><td>the identity path</td><td>1</td><td>0</td></tr>" in html


@pytest.mark.parametrize("count", [1, 5])
def test_answers_fragment_runs_fixed_queries(
    client, cohort, instructor, django_assert_num_queries, count
):
    for n in range(count):
        learner = UserFactory(username=f"extra{n}")
        cohort.learners.add(learner)
        answer(learner, "q-10-03", text=f"phrasing {n}")
    client.force_login(instructor)
    url = answers_url(cohort)

    # session, user, cohort, the user's and the group's permissions, question, answers
    with django_assert_num_queries(7):
        client.get(url, headers={"HX-Request": "true"})


def test_answers_of_another_cohort_or_a_choice_question_are_404(client, cohort, instructor):
    other = Cohort.objects.create(name="Autumn")
    client.force_login(instructor)

    other_cohort = client.get(answers_url(other))
    choice = client.get(answers_url(cohort, code="q-10-01"))

    assert (other_cohort.status_code, choice.status_code) == (404, 404)
