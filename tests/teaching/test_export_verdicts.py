"""The CSV export says what each changed verdict stands on: a regrade, an override or a
confirmation, the newest entry of the attempt winning."""

import csv
import io

from progress.models import Attempt
from teaching.models import Cohort
from teaching.services import verdict_override
from tests.factories import UserFactory, answer


def _rows(client, cohort):
    body = b"".join(
        client.get(f"/admin/teaching/cohort/{cohort.pk}/results/export.csv").streaming_content
    )
    rows = list(csv.reader(io.StringIO(body.decode())))
    header = rows[0]
    return [dict(zip(header, row, strict=True)) for row in rows[1:]]


def test_the_export_tells_an_override_from_an_attempt_left_alone(
    seeds_imported, client, instructor
):
    cohort = Cohort.objects.create(name="Spring")
    cohort.instructors.add(instructor)
    ana, bea = UserFactory(username="ana"), UserFactory(username="bea")
    cohort.learners.add(ana, bea)
    answer(ana, "q-10-03", text="no idea")
    answer(bea, "q-10-03", text="no idea either")
    wrong = Attempt.objects.get(learner=ana)
    verdict_override(attempt=wrong, correct=True, reason="said it in class", by=instructor)
    client.force_login(instructor)

    rows = {row["learner"]: row for row in _rows(client, cohort)}

    assert (rows["ana"]["correct"], rows["ana"]["regraded_correct"]) == ("0", "1")
    assert rows["ana"]["regraded_by"] == "override"
    assert (rows["bea"]["regraded_correct"], rows["bea"]["regraded_by"]) == ("", "")


def test_the_export_shows_the_newest_verdict_of_an_attempt(seeds_imported, client, instructor):
    cohort = Cohort.objects.create(name="Spring")
    cohort.instructors.add(instructor)
    ana = UserFactory(username="ana")
    cohort.learners.add(ana)
    answer(ana, "q-10-03", text="no idea")
    attempt = Attempt.objects.get()
    verdict_override(attempt=attempt, correct=True, reason="first look", by=instructor)
    attempt.refresh_from_db()
    verdict_override(attempt=attempt, correct=False, reason="second look", by=instructor)
    client.force_login(instructor)

    (row,) = _rows(client, cohort)

    assert (row["regraded_correct"], row["regraded_by"]) == ("0", "override")
