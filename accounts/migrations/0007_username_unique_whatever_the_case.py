"""Usernames unique whatever their case, kept by the database: the account form's check
(Django's `username__iexact`) runs before the insert, so two invites redeemed at the
same moment as "Zed" and "zed" (two app servers) made both accounts (red-team run 18).
The insert that comes second now fails on this index, and the link's page says the name
is taken."""

from django.db import migrations
from django.db.models import Count
from django.db.models.functions import Lower

INDEX = "accounts_username_lower_uniq"


def clashes_refuse(apps, schema_editor):
    """Name the usernames that already differ only in case, to rename in the admin:
    the index cannot be made over them."""
    User = apps.get_model("auth", "User")
    clashes = list(
        User.objects.using(schema_editor.connection.alias)
        .annotate(key=Lower("username"))
        .values("key")
        .annotate(accounts=Count("pk"))
        .filter(accounts__gt=1)
        .values_list("key", flat=True)
    )
    if clashes:
        raise RuntimeError(
            "Usernames that differ only in case: "
            + ", ".join(sorted(clashes))
            + ". Rename all but one of each in the admin, then migrate again."
        )


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0006_login_throttle"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [
        migrations.RunPython(clashes_refuse, migrations.RunPython.noop),
        migrations.RunSQL(
            f"CREATE UNIQUE INDEX {INDEX} ON auth_user (LOWER(username))",
            f"DROP INDEX {INDEX}",
        ),
    ]
