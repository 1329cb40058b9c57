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


def test_one_converts_every_kind_of_field_as_the_orm_does(seeds_imported):
    """Dates, booleans, JSON, decimals-as-floats and nulls come back as the ORM's own
    read gives them, and a column that is no field is kept as an attribute."""
    from progress.models import Attempt
    from progress.services import attempt_record
    from tests.factories import UserFactory

    question = Question.objects.get(code="q-10-01")
    attempt_record(
        learner=UserFactory(),
        revision=question.current_revision,
        nonce="n-1",
        answer={"keys": ["B"]},
        language="en",
    )
    expected = Attempt.objects.get()

    read = one(Attempt, "SELECT *, 41 + 1 AS extra FROM {table} WHERE {pk} = %s", [expected.pk])

    for field in Attempt._meta.concrete_fields:
        assert getattr(read, field.attname) == getattr(expected, field.attname), field.name
        assert type(getattr(read, field.attname)) is type(getattr(expected, field.attname))
    assert read.extra == 42
    assert read._state.adding is False and read._state.db == "default"


def test_one_refuses_a_statement_without_the_primary_key(seeds_imported):
    with pytest.raises(ValueError, match="primary key"):
        one(Phase, "SELECT number FROM {table}", [])


def _attempt(learner, question, token):
    from progress.models import Attempt

    return Attempt(
        learner=learner,
        question=question,
        revision=question.current_revision,
        token=token,
        answer={"keys": ["A", "C"]},
        correct=False,
        score=0.25,
        partial=0.5,
        feedback={"right_picks": ["A"], "wrong_picks": ["C"]},
        pattern="AC",
        language="es",
    )


def test_insert_stores_what_save_stores_and_the_key_the_database_gave(seeds_imported):
    from portal.sql import insert
    from progress.models import Attempt
    from tests.factories import UserFactory

    learner, question = UserFactory(), Question.objects.get(code="q-10-01")
    saved = _attempt(learner, question, "by-save")
    saved.save()
    inserted = _attempt(learner, question, "by-insert")

    insert(inserted)

    assert inserted.pk is not None and inserted.pk != saved.pk
    assert inserted._state.adding is False and inserted._state.db == "default"
    stored, expected = Attempt.objects.get(pk=inserted.pk), Attempt.objects.get(pk=saved.pk)
    for field in Attempt._meta.concrete_fields:
        if field.name not in ("id", "token", "created_at"):
            assert getattr(stored, field.attname) == getattr(expected, field.attname), field.name
    assert stored.created_at == inserted.created_at


def test_insert_refuses_a_repeated_unique_value_and_writes_nothing(seeds_imported):
    from django.db import IntegrityError, transaction

    from portal.sql import insert
    from progress.models import Attempt
    from tests.factories import UserFactory

    learner, question = UserFactory(), Question.objects.get(code="q-10-01")
    insert(_attempt(learner, question, "once"))

    with pytest.raises(IntegrityError), transaction.atomic():
        insert(_attempt(learner, question, "once"))

    assert Attempt.objects.count() == 1


def test_nothing_listens_to_the_saves_insert_skips():
    """insert() sends no save signals: a receiver added for these models would miss
    every answer, so this fails first."""
    from django.db.models.signals import post_save, pre_save

    from progress.models import Attempt

    for model in (Attempt,):
        assert not pre_save.has_listeners(model) and not post_save.has_listeners(model)


def test_one_reads_a_repeated_column_once_and_adapts_its_parameters(seeds_imported):
    """As raw() does: the first of two like-named columns counts, and an aware
    datetime parameter is adapted, so it compares with stored dates on SQLite too."""
    from progress.models import Attempt
    from tests.factories import UserFactory

    attempt = _attempt(UserFactory(), Question.objects.get(code="q-10-01"), "t-1")
    attempt.save()

    read = one(
        Attempt,
        "SELECT *, 'other' AS pattern FROM {table} WHERE created_at >= %s",
        [attempt.created_at],
    )

    assert read is not None and read.pk == attempt.pk
    assert read.pattern == "AC" and read.created_at == attempt.created_at


def test_insert_refuses_a_row_already_stored(seeds_imported):
    from portal.sql import insert
    from tests.factories import UserFactory

    attempt = _attempt(UserFactory(), Question.objects.get(code="q-10-01"), "t-1")
    attempt.save()

    with pytest.raises(ValueError, match="new rows only"):
        insert(attempt)
