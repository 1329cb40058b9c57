"""portal.sql: quoted table names, the row lock where the database has one."""

import pytest
from django.db import connection

from portal.sql import one, statement
from quizzes.models import Phase, Question

pytestmark = pytest.mark.django_db


def test_statement_quotes_the_models_tables_and_locks_only_where_rows_lock():
    sql = statement(
        "SELECT 1 FROM {table} JOIN {other} ON 1 = 1{lock}", table=Phase, other=Question
    )

    quote = connection.ops.quote_name
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    assert (
        sql
        == f"SELECT 1 FROM {quote('quizzes_phase')} JOIN {quote('quizzes_question')} ON 1 = 1{lock}"
    )


def test_one_reads_the_first_instance_or_none(seeds_imported):
    phase = one(Phase, "SELECT * FROM {table} WHERE {pk} = %s", [Phase.objects.get(number=10).pk])

    assert phase == Phase.objects.get(number=10)
    assert phase.title_texts == Phase.objects.get(number=10).title_texts
    assert one(Phase, "SELECT * FROM {table} WHERE number = %s", [999]) is None
