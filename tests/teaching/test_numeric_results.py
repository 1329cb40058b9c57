"""A numeric question for instructors: the values given (histogram, common wrong
values) in the item analysis, and regrades when its answer or tolerance changes."""

import re
from decimal import Decimal
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import Client

from progress.models import Regrade
from quizzes.grading.numeric import numeric_key
from teaching.models import Cohort
from teaching.numeric_answers import Bin, NumericAnswers
from teaching.services import verdict_override
from tests.factories import UserFactory, answer

pytestmark = pytest.mark.django_db

NUMERIC_DIR = Path(__file__).resolve().parents[1] / "quizzes" / "numeric"


@pytest.fixture
def numeric_dir(tmp_path):
    folder = tmp_path / "numeric"
    folder.mkdir()
    source = (NUMERIC_DIR / "phase-91-numeric.yaml").read_text("utf-8")
    (folder / "phase-91-numeric.yaml").write_text(source, "utf-8")
    call_command("import_quizzes", str(folder), stdout=StringIO())
    return folder


@pytest.fixture
def cohort(numeric_dir, instructor, settings):
    settings.RESULTS_MIN_LEARNERS = 1
    cohort = Cohort.objects.create(name="Spring")
    cohort.instructors.add(instructor)
    given = ["14", "14 GB", "13,5", "7", "7 GB", "7", "28", "1.4e10"]
    for n, text in enumerate(given):
        learner = UserFactory(username=f"l{n}")
        cohort.learners.add(learner)
        answer(learner, "q-91-01", text=text)
    return cohort


def test_results_numeric_question_shows_values_histogram_and_common_wrong_values(
    client, instructor, cohort
):
    client.force_login(instructor)

    response = client.get(f"/admin/teaching/cohort/{cohort.pk}/results/?phase=91")

    html = " ".join(response.content.decode().split())
    row = html[html.index(">q-91-01</a>") : html.index(">q-91-02</a>")]
    assert 'aria-label="Histogram of the values given"' in row
    assert row.count("<rect ") == 11  # ten bins and one for the value far above them
    assert "<title>above 28: 1</title>" in row
    assert (
        '<text x="0" y="64" font-size="9">7</text>'
        '<text x="187" y="64" font-size="9" text-anchor="end">28</text>'
    ) in row
    assert 'fill="#417690"><title>7 – 9.1: 3</title>' in row
    assert 'fill="#1a7f37"><title>13.3 – 15.4: 3</title>' in row  # right values, green
    assert (
        'Most common wrong values:</p> <ul class="plain wrong-values">'
        "<li>7 GB: 3 (38%)</li><li>28 GB: 1 (13%)</li><li>14000000000 GB: 1 (13%)</li></ul>"
    ) in row


def test_results_histogram_marks_right_values_by_more_than_their_colour(client, instructor, cohort):
    """Green and the wrong bars' blue are 1.02:1 apart in luminance: without hue (colour
    blindness, a greyscale print) only the check mark over a bar says it holds right
    values (WCAG 1.4.1)."""
    client.force_login(instructor)

    response = client.get(f"/admin/teaching/cohort/{cohort.pk}/results/?phase=91")

    html = " ".join(response.content.decode().split())
    row = html[html.index(">q-91-01</a>") : html.index(">q-91-02</a>")]
    svg = row[row.index('<svg class="values"') : row.index("</svg>")]
    # The right range (14 ± 8 %) covers two bins, the first empty: marked all the same.
    assert re.findall(r'<text class="right-mark"[^>]*>([^<]*)</text>', svg) == ["✓", "✓"]
    assert (
        '<rect x="57" y="8" width="16" height="44" fill="#1a7f37">'
        "<title>13.3 – 15.4: 3</title></rect>"
        '<text class="right-mark" x="65" y="7" font-size="8" text-anchor="middle">✓</text>'
    ) in svg


def test_numeric_answers_bins_put_far_values_in_end_bins():
    answers = NumericAnswers(key=numeric_key({"answer": 10, "tolerance": 1}))
    for value, n in (("-1000", 1), ("9", 2), ("10", 5), ("12", 1), ("20", 2), ("1E+9", 1)):
        answers.add(value, n)

    bins = answers.bins()

    assert [(b.edge, b.answers) for b in bins if b.edge] == [("below", 1), ("above", 1)]
    assert [b.answers for b in bins[1:-1]] == [7, 0, 1, 0, 0, 0, 0, 0, 0, 2]
    assert bins[1] == Bin(Decimal(9), Decimal("10.1"), 7, right=True)
    assert answers.common_wrong == [
        (Decimal(20), 2, 2 / 12),
        (Decimal(-1000), 1, 1 / 12),
        (Decimal(12), 1, 1 / 12),
        (Decimal("1E+9"), 1, 1 / 12),
    ]


def test_regrade_after_tolerance_change_regrades_numeric_answers(numeric_dir):
    ana, bea = UserFactory(username="ana"), UserFactory(username="bea")
    answer(ana, "q-91-01", text="13,04")  # right with 8 %
    answer(bea, "q-91-01", text="7 GB")  # wrong either way
    path = numeric_dir / "phase-91-numeric.yaml"
    edited = path.read_text("utf-8").replace('tolerance: "8%"', 'tolerance: "5%"')
    edited = edited.replace('answer: "13,04", right: true', 'answer: "13,5", right: true')
    path.write_text(edited, "utf-8")
    dry_run = StringIO()
    call_command("import_quizzes", str(numeric_dir), "--dry-run", stdout=dry_run)
    call_command("import_quizzes", str(numeric_dir), stdout=StringIO())

    call_command("regrade", "q-91-01", stdout=StringIO())

    assert "answer: 14 ± 8% → 14 ± 5%" in dry_run.getvalue()
    entry = Regrade.objects.get()
    assert (entry.attempt.learner, entry.old_correct, entry.new_correct) == (ana, True, False)


def test_override_of_a_numeric_answer_shows_in_the_learners_feedback(numeric_dir, instructor):
    ana = UserFactory(username="ana")
    attempt = answer(ana, "q-91-01", text="13,04")  # right: within 8 % of 14
    verdict_override(attempt=attempt, correct=False, reason="GiB is not GB", by=instructor)
    client = Client()
    client.force_login(ana)

    html = " ".join(client.get("/phase/91/").content.decode().split())

    assert "Marked wrong by your instructor on" in html
    assert "“<bdi>GiB is not GB</bdi>”" in html
    assert "Read as 13.04 GB." in html
    assert attempt.correct is True


def test_regrade_after_unit_change_grades_the_stored_reading(numeric_dir):
    ana = UserFactory(username="ana")
    answer(ana, "q-91-01", text="14 GB")
    path = numeric_dir / "phase-91-numeric.yaml"
    edited = path.read_text("utf-8").replace("unit: {en: GB, es: GB}", "unit: {en: gigabytes}")
    path.write_text(edited.replace('{answer: "14 GB", right: true}', '{answer: "14", right: true}'))
    call_command("import_quizzes", str(numeric_dir), stdout=StringIO())
    out = StringIO()

    call_command("regrade", "q-91-01", stdout=out)

    assert out.getvalue().startswith("0 attempt(s) change")
    assert Regrade.objects.count() == 0


def test_a_wrong_numeric_answer_offers_no_key_change_which_is_for_free_text(
    client, instructor, cohort
):
    from progress.models import Attempt

    wrong = Attempt.objects.get(learner__username="l3")  # "7": wrong
    learner = f"/admin/teaching/cohort/{cohort.pk}/results/learner/{wrong.learner_id}/"
    client.force_login(instructor)

    drill_down = client.get(learner).content.decode()
    overridden = client.post(
        f"{learner}attempt/{wrong.pk}/override/",
        {"verdict": "right", "seen": "0", "reason": "GiB were meant"},
        follow=True,
    ).content.decode()
    key_change = client.get(
        f"/admin/teaching/cohort/{cohort.pk}/results/attempt/{wrong.pk}/key-change/"
    )

    assert "key-change-link" not in drill_down
    assert "marked right." in overridden
    assert "See the key change it suggests" not in overridden
    assert key_change.status_code == 404
