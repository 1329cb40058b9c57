"""The drill-down sends an instructor to To check only for the attempt To check lists:
the learner's latest at the question. An older unsure attempt is provisional, no more."""

import pytest

from teaching.models import Cohort
from tests.factories import UserFactory, answer

NEGATED = "The residual is not the identity."  # unsure: wrong only through a negation


@pytest.fixture
def spring(seeds_imported, instructor):
    """Cohort Spring, taught by `instructor`, with one learner, ana."""
    cohort = Cohort.objects.create(name="Spring")
    cohort.instructors.add(instructor)
    ana = UserFactory(username="ana")
    cohort.learners.add(ana)
    return cohort, ana


def _override_url(cohort, learner, attempt) -> str:
    drill_down = f"/admin/teaching/cohort/{cohort.pk}/results/learner/{learner.pk}"
    return f"{drill_down}/attempt/{attempt.pk}/override/"


def test_only_the_latest_unsure_attempt_is_marked_to_check(spring, client, instructor):
    cohort, ana = spring
    older = answer(ana, "q-10-03", text=NEGATED)
    newer = answer(ana, "q-10-03", text=NEGATED)
    assert older.provisional() and newer.provisional()
    client.force_login(instructor)

    html = client.get(f"/admin/teaching/cohort/{cohort.pk}/results/learner/{ana.pk}/")
    rows = " ".join(html.content.decode().split()).split('<tr id="attempt-')

    newer_row = next(r for r in rows if r.startswith(f'{newer.pk}"'))
    older_row = next(r for r in rows if r.startswith(f'{older.pk}"'))
    assert "(provisional: to check)" in newer_row
    assert "(provisional)" in older_row and "to check" not in older_row


def test_a_wrong_free_answer_shows_its_partial_score_as_the_learner_sees_it(
    spring, client, instructor
):
    cohort, ana = spring
    # One of q-19-05's three mentions: wrong, a third of the way there.
    wrong = answer(ana, "q-19-05", text="the embedding row of that token gets a big update")
    assert (wrong.correct, wrong.score, round(wrong.partial, 2)) == (False, 0.0, 0.33)
    client.force_login(ana)
    progress = " ".join(client.get("/progress/").content.decode().split())
    client.force_login(instructor)

    html = client.get(f"/admin/teaching/cohort/{cohort.pk}/results/learner/{ana.pk}/")

    assert "<td>0% (partial 33%)</td>" in " ".join(html.content.decode().split())
    assert "33% (partial)" in progress


def test_a_retired_questions_unsure_verdict_is_not_to_check(spring, client, instructor):
    from quizzes.models import Question

    cohort, ana = spring
    answer(ana, "q-10-03", text=NEGATED)
    Question.objects.filter(code="q-10-03").update(retired_at="2026-01-01T00:00Z")
    client.force_login(instructor)

    listed = client.get(f"/admin/teaching/cohort/{cohort.pk}/to-check/").content.decode()
    drill = client.get(f"/admin/teaching/cohort/{cohort.pk}/results/learner/{ana.pk}/")

    assert "Nothing to check." in listed
    assert "(provisional)" in drill.content.decode()
    assert "to check)" not in drill.content.decode()


def test_no_key_change_is_offered_once_a_regrade_made_the_answer_right(spring, client, instructor):
    from progress.models import Regrade

    cohort, ana = spring
    wrong = answer(ana, "q-10-03", text="no idea")
    client.force_login(instructor)
    drill = f"/admin/teaching/cohort/{cohort.pk}/results/learner/{ana.pk}/"
    before = client.get(drill).content.decode()
    Regrade.objects.create(
        attempt=wrong,
        revision=wrong.revision,
        old_correct=False,
        old_score=0.0,
        new_correct=True,
        new_score=1.0,
        new_partial=1.0,
    )

    after = client.get(drill).content.decode()

    assert "Key change…" in before
    assert "Key change…" not in after


def test_an_override_from_a_later_page_of_the_drill_down_comes_back_to_it(
    spring, client, instructor
):
    cohort, ana = spring
    attempt = answer(ana, "q-10-03", text="no idea")
    client.force_login(instructor)
    url = _override_url(cohort, ana, attempt)

    response = client.post(url, {"verdict": "right", "reason": "ok", "seen": 0, "page": "3"})

    assert response["Location"].endswith(f"?done={attempt.pk}&page=3#attempt-{attempt.pk}")


def test_a_reason_of_characters_no_one_sees_is_refused_naming_the_answer(
    spring, client, instructor
):
    cohort, ana = spring
    attempt = answer(ana, "q-10-03", text="no idea")
    client.force_login(instructor)
    url = _override_url(cohort, ana, attempt)

    response = client.post(url, {"verdict": "right", "reason": "\u200b\u200b", "seen": 0})
    page = client.get(response["Location"]).content.decode()

    assert "Nothing was recorded for ana&#x27;s answer at q-10-03. Give a reason" in page


def test_a_retired_questions_answer_offers_no_key_change_nor_provisional_note(
    seeds_imported, client, instructor
):
    from quizzes.models import Question

    ana = UserFactory(username="ana")
    answer(ana, "q-10-03", text=NEGATED)  # wrong and unsure
    Question.objects.filter(code="q-10-03").update(retired_at="2026-01-01T00:00Z")
    cohort = Cohort.objects.create(name="Spring")
    cohort.instructors.add(instructor)
    cohort.learners.add(ana)
    client.force_login(instructor)
    drill = client.get(f"/admin/teaching/cohort/{cohort.pk}/results/learner/{ana.pk}/")
    client.force_login(ana)

    progress = client.get("/progress/").content.decode()

    assert "Key change…" not in drill.content.decode()
    assert "(provisional)" not in progress
