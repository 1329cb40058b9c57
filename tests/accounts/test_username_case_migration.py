"""The migration that makes usernames unique whatever their case names the accounts
already in the way, to rename first, instead of failing on the index."""

import importlib
from types import SimpleNamespace

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import connection

pytestmark = pytest.mark.django_db

migration = importlib.import_module("accounts.migrations.0007_username_unique_whatever_the_case")


def test_the_migration_names_usernames_that_differ_only_in_case():
    with connection.cursor() as cursor:  # as before the migration (rolled back after)
        cursor.execute(f"DROP INDEX {migration.INDEX}")
    # Made before the index and before names were checked as accounts are saved.
    User = get_user_model()
    User.objects.bulk_create(User(username=name) for name in ("Zed", "zed", "ana", "KIM", "Kim"))
    editor = SimpleNamespace(connection=connection)

    with pytest.raises(RuntimeError) as refused:
        migration.clashes_refuse(apps, editor)

    assert str(refused.value) == (
        "Usernames that differ only in case: kim, zed. Rename all but one of each in the "
        "admin, then migrate again."
    )
