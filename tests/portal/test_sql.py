"""portal.sql: table and column names from the models, quoted; the router's database."""

import pytest
from django.core.exceptions import FieldDoesNotExist
from django.db import connection

from portal.sql import one, rows, statement, write
from quizzes.models import Phase, Question

pytestmark = pytest.mark.django_db


def test_statement_takes_tables_and_columns_from_the_models_quoted():
    sql = statement(
        "SELECT {table.title_en}, {other.phase} FROM {table} JOIN {other} ON 1 = 1",
        "default",
        Phase,
        other=Question,
    )

    quote = connection.ops.quote_name
    assert sql == (
        f"SELECT {quote('title_en')}, {quote('phase_id')} "
        f"FROM {quote('quizzes_phase')} JOIN {quote('quizzes_question')} ON 1 = 1"
    )


def test_statement_refuses_a_field_the_model_does_not_have():
    with pytest.raises(FieldDoesNotExist):
        statement("SELECT {table.latest_attempt_id} FROM {table}", "default", Phase)


def test_rows_and_write_run_on_the_models_database(seeds_imported):
    number = Phase.objects.get(number=10).number

    changed = write(
        Phase,
        "UPDATE {table} SET {table.title_en} = %s WHERE {table.number} = %s",
        ["Renamed", number],
    )
    found = rows(Phase, "SELECT {table.number} FROM {table} WHERE {table.number} = %s", [number])

    assert changed == 1
    assert found == [(10,)]
    assert Phase.objects.get(number=10).title_en == "Renamed"


def test_one_reads_the_first_instance_or_none(seeds_imported):
    phase = one(Phase, "SELECT * FROM {table} WHERE {pk} = %s", [Phase.objects.get(number=10).pk])

    assert phase == Phase.objects.get(number=10)
    assert phase.title_texts == Phase.objects.get(number=10).title_texts
    assert one(Phase, "SELECT * FROM {table} WHERE number = %s", [999]) is None


def test_one_adapts_a_datetime_parameter(seeds_imported):
    """An aware datetime parameter is adapted, so it compares with stored dates on
    SQLite too (the session store reads by expiry)."""
    from progress.models import Attempt
    from tests.factories import UserFactory

    question = Question.objects.get(code="q-10-01")
    attempt = Attempt.objects.create(
        learner=UserFactory(),
        question=question,
        revision=question.current_revision,
        token="t-1",
        answer={"keys": ["A"]},
        correct=False,
        score=0.0,
        partial=0.0,
        feedback={},
        pattern="A",
        language="en",
    )

    read = one(Attempt, "SELECT * FROM {table} WHERE created_at >= %s", [attempt.created_at])

    assert read is not None and read.pk == attempt.pk and read.created_at == attempt.created_at
