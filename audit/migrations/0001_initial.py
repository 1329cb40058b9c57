"""AuditEvent moves here from accounts; its table (accounts_auditevent) stays."""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models

from portal.migration_helpers import content_type_move


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("accounts", "0003_instructors_group"),
        ("contenttypes", "0002_remove_content_type_name"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="AuditEvent",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        (
                            "kind",
                            models.CharField(
                                choices=[
                                    ("login", "Logged in"),
                                    ("login_failed", "Login failed"),
                                    ("login_refused", "Login refused (throttled)"),
                                    ("logout", "Logged out"),
                                    ("setup_link_created", "Setup link created"),
                                    ("setup_link_used", "Setup link used"),
                                    ("invite_created", "Invite created"),
                                    ("invite_redeemed", "Invite redeemed"),
                                    ("password_changed", "Password changed"),
                                    ("import_run", "Quiz import run"),
                                    ("regrade_run", "Regrade run"),
                                ],
                                max_length=32,
                                verbose_name="kind",
                            ),
                        ),
                        (
                            "subject",
                            models.CharField(blank=True, max_length=150, verbose_name="subject"),
                        ),
                        (
                            "detail",
                            models.JSONField(blank=True, default=dict, verbose_name="detail"),
                        ),
                        (
                            "ip_address",
                            models.GenericIPAddressField(
                                blank=True, null=True, verbose_name="IP address"
                            ),
                        ),
                        (
                            "created_at",
                            models.DateTimeField(
                                default=django.utils.timezone.now, verbose_name="when"
                            ),
                        ),
                        (
                            "user",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                                verbose_name="user",
                            ),
                        ),
                    ],
                    options={
                        "verbose_name": "audit event",
                        "verbose_name_plural": "audit events",
                        "db_table": "accounts_auditevent",
                        "ordering": ["-created_at"],
                        "indexes": [
                            models.Index(
                                fields=["kind", "subject", "created_at"],
                                name="audit_throttle_idx",
                            ),
                            models.Index(fields=["created_at"], name="audit_created_idx"),
                        ],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(
            *content_type_move(model="auditevent", old_app="accounts", new_app="audit")
        ),
    ]
