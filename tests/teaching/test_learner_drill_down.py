"""The learner drill-down in the admin: a long free answer shows its start, the whole of
it folded under a summary that says how long it is, in the viewer's language."""

import pytest

from teaching.models import Cohort
from tests.factories import UserFactory, answer

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("language", "summary"),
    [
        ("en", "The whole answer (10000 characters)"),
        ("es", "La respuesta entera (10000 caracteres)"),
    ],
)
def test_a_long_free_answer_is_folded_after_its_start(
    client, seeds_imported, instructor, language, summary
):
    cohort = Cohort.objects.create(name="Spring")
    cohort.instructors.add(instructor)
    ana = UserFactory(username="ana")
    cohort.learners.add(ana)
    text = "identity " + "x" * (10_000 - len("identity ") - 3) + "end"
    answer(ana, "q-10-03", text=text)
    short = answer(ana, "q-10-03", text="the identity path")
    instructor.profile.language = language
    instructor.profile.save()
    client.force_login(instructor)

    html = client.get(f"/admin/teaching/cohort/{cohort.pk}/results/learner/{ana.pk}/").content
    html = html.decode()

    start = html.index(
        '<td class="answer-cell"><span class="answer-text" lang="en" dir="auto">identity x'
    )
    cell = html[start : html.index("</td>", start)]
    assert cell.index("…") < cell.index("<details>")  # the start, cut, then the fold
    assert len(cell[cell.index("identity") : cell.index("…")]) < 280
    assert f"<summary>{summary}</summary>" in cell
    assert cell.count("end") == 1 and "x" * 9000 in cell  # the whole, once, folded
    # A short one stays whole.
    whole = f'<span class="answer-text" lang="en" dir="auto">{short.text}</span>'
    assert f'<td class="answer-cell">{whole}</td>' in html


def test_a_learner_with_many_attempts_is_shown_a_page_at_a_time(
    client, seeds_imported, instructor, monkeypatch
):
    import teaching.admin

    monkeypatch.setattr(teaching.admin, "ATTEMPTS_PER_PAGE", 3)
    cohort = Cohort.objects.create(name="Spring")
    cohort.instructors.add(instructor)
    ana = UserFactory(username="ana")
    cohort.learners.add(ana)
    attempts = [answer(ana, "q-10-03", text=f"try number {n}") for n in range(7)]
    client.force_login(instructor)
    url = f"/admin/teaching/cohort/{cohort.pk}/results/learner/{ana.pk}/"

    first = client.get(url).content.decode()
    last = client.get(url + "?page=3").content.decode()
    beyond = client.get(url + "?page=99")

    assert "7 attempts" in first
    assert [f"try number {n}" in first for n in range(7)] == [False] * 4 + [True] * 3
    assert "Page 1 of 3" in first and "?page=2" in first
    assert f'id="attempt-{attempts[0].pk}"' in last and "try number 1" not in last
    assert beyond.status_code == 200  # past the end: the last page


def test_a_link_to_one_attempt_opens_the_page_that_holds_it(
    client, seeds_imported, instructor, monkeypatch
):
    """The attempt's admin page, To check and the key change link to an attempt by its
    anchor: an old one of a learner with many attempts is on a later page of the
    drill-down, so the link names the attempt and the drill-down opens its page."""
    import teaching.admin

    monkeypatch.setattr(teaching.admin, "ATTEMPTS_PER_PAGE", 3)
    cohort = Cohort.objects.create(name="Spring")
    cohort.instructors.add(instructor)
    ana, bea = UserFactory(username="ana"), UserFactory(username="bea")
    cohort.learners.add(ana, bea)
    attempts = [answer(ana, "q-10-03", text=f"try number {n}") for n in range(7)]
    other = answer(bea, "q-10-03", text="bea's answer")
    client.force_login(instructor)
    url = f"/admin/teaching/cohort/{cohort.pk}/results/learner/{ana.pk}/"

    oldest = client.get(f"{url}?attempt={attempts[0].pk}").content.decode()
    middle = client.get(f"{url}?attempt={attempts[3].pk}").content.decode()
    chosen = client.get(f"{url}?attempt={attempts[0].pk}&page=1").content.decode()
    foreign = client.get(f"{url}?attempt={other.pk}").content.decode()
    junk = client.get(f"{url}?attempt=x9")
    record = client.get(f"/admin/progress/attempt/{attempts[0].pk}/change/").content.decode()

    assert "Page 3 of 3" in oldest and f'id="attempt-{attempts[0].pk}"' in oldest
    assert "Page 2 of 3" in middle and f'id="attempt-{attempts[3].pk}"' in middle
    assert "Page 1 of 3" in chosen  # a page asked for wins
    assert "Page 1 of 3" in foreign and "bea" not in foreign.split("<h1")[1][:200]
    assert junk.status_code == 200 and "Page 1 of 3" in junk.content.decode()
    assert f"{url}?attempt={attempts[0].pk}#attempt-{attempts[0].pk}" in record


def test_each_attempt_row_is_named_by_its_question(client, seeds_imported, instructor):
    """A row header, so a screen reader at an "Override…" hears which question's attempt
    it is; the column header alone said only "Verdict now"."""
    cohort = Cohort.objects.create(name="Spring")
    cohort.instructors.add(instructor)
    ana = UserFactory(username="ana")
    cohort.learners.add(ana)
    attempt = answer(ana, "q-10-01", keys=["A"])
    client.force_login(instructor)

    html = client.get(f"/admin/teaching/cohort/{cohort.pk}/results/learner/{ana.pk}/").content
    html = html.decode()

    row = html[html.index(f'<tr id="attempt-{attempt.pk}">') :]
    row = row[: row.index("</tr>")]
    # Named by its title too: a code alone sent the teacher to look it up (UX walk 24).
    title = "Why is bf16 preferred over fp16 for training?"
    assert f'<th scope="row">q-10-01 · <span class="quiet">{title}</span></th>' in row
    assert "Override…" in row


def test_a_staff_account_among_the_learners_has_no_drill_down(client, seeds_imported, instructor):
    """Another instructor still listed among the learners: no figure counts her, and her
    page named her in the cohort, attempts left out (red team 19)."""
    cohort = Cohort.objects.create(name="Spring")
    cohort.instructors.add(instructor)
    colleague = UserFactory(username="colleague", is_staff=True)
    cohort.learners.add(colleague)
    answer(colleague, "q-10-01", keys=["A"])
    client.force_login(instructor)

    response = client.get(f"/admin/teaching/cohort/{cohort.pk}/results/learner/{colleague.pk}/")

    assert response.status_code == 404
    assert "colleague" not in response.content.decode()


def test_a_superuser_without_staff_status_among_the_learners_is_no_learner(
    client, seeds_imported, instructor
):
    """A superuser whose staff status was unticked, listed among a cohort's learners: the
    cohort's instructor saw her attempts, could override them and read her logins'
    addresses in the audit log (red team 25). A superuser is no learner, as a staff
    account is not."""
    from audit.enums import AuditKind
    from audit.services import audit_record
    from teaching.scope import learners_taught, users_in_scope

    cohort = Cohort.objects.create(name="Spring")
    cohort.instructors.add(instructor)
    boss = UserFactory(username="bossy", is_staff=False, is_superuser=True)
    cohort.learners.add(boss)
    answer(boss, "q-10-01", keys=["A"])
    audit_record(kind=AuditKind.LOGIN, user=boss, subject="bossy")
    client.force_login(instructor)

    page = client.get(f"/admin/teaching/cohort/{cohort.pk}/results/learner/{boss.pk}/")
    results = client.get(f"/admin/teaching/cohort/{cohort.pk}/results/").content.decode()
    audit = client.get("/admin/audit/auditevent/").content.decode()

    assert page.status_code == 404
    assert "bossy" not in results and "bossy" not in audit
    assert boss.pk not in set(learners_taught(instructor).values_list("user_id", flat=True))
    assert boss.pk not in {row["pk"] for row in users_in_scope(instructor)}
    assert list(cohort.counted_learners()) == []
