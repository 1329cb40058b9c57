"""portal.sql: table and column names from the models, quoted; the router's database."""

import pytest
from django.core.exceptions import FieldDoesNotExist
from django.db import connection

from portal.sql import read, rows, statement, write
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


def test_read_gives_what_the_orms_read_gives_for_every_kind_of_field(seeds_imported):
    """Dates, booleans, JSON, floats, foreign keys and nulls come back with the ORM's
    values and types, and the instance is a stored one."""
    from progress.models import Attempt, ReviewCard
    from progress.services import attempt_record
    from tests.factories import UserFactory

    question = Question.objects.get(code="q-10-01")
    attempt_record(
        learner=UserFactory(),
        revision=question.current_revision,
        nonce="n-1",
        answer={"keys": ["A"]},  # wrong: a review card too
        language="en",
    )
    for model in (Attempt, ReviewCard, Phase, type(UserFactory())):
        expected = model.objects.order_by("pk").first()
        assert expected is not None, model

        found = read(model, "SELECT {columns} FROM {table} WHERE {table.pk} = %s", [expected.pk])

        for field in model._meta.concrete_fields:
            mine, theirs = getattr(found, field.attname), getattr(expected, field.attname)
            assert mine == theirs, (model, field.name)
            assert type(mine) is type(theirs), (model, field.name)
        assert found._state.adding is False and found._state.db == "default"


def test_read_qualifies_columns_and_answers_none_for_no_row_or_an_int_no_column_holds(
    seeds_imported,
):
    template = "SELECT {columns:p} FROM {table} p WHERE p.{table.number} = %s"

    assert read(Phase, template, [10]) == Phase.objects.get(number=10)
    assert read(Phase, template, [999]) is None
    assert read(Phase, template, [2**63]) is None


def test_read_sets_the_columns_after_the_models_as_attributes(seeds_imported):
    found = read(
        Phase, "SELECT {columns}, 41 + 1 AS extra FROM {table} WHERE {table.number} = %s", [10]
    )

    assert found == Phase.objects.get(number=10) and found.extra == 42


def test_a_locking_read_runs_on_the_database_written_to(seeds_imported, settings):
    """With a router sending reads to a replica, `{lock}` reads still go where the
    transaction writes."""

    class Replica:
        def db_for_read(self, model, **hints):
            return "replica"

        def db_for_write(self, model, **hints):
            return "default"

    settings.DATABASE_ROUTERS = [Replica()]

    found = read(Phase, "SELECT {columns} FROM {table} WHERE {table.number} = %s{lock}", [10])

    assert found == Phase.objects.using("default").get(number=10)
    assert found._state.db == "default"
