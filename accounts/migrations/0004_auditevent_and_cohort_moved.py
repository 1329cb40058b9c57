"""AuditEvent moved to the audit app and Cohort to teaching: only the migration state
changes; the tables and the invite's foreign key column stay as they are."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0003_instructors_group"),
        ("audit", "0001_initial"),
        ("teaching", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="AuditEvent"),
                migrations.AlterField(
                    model_name="invite",
                    name="cohort",
                    field=models.ForeignKey(
                        blank=True,
                        help_text="Redeeming the invite makes the learner a member.",
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="invites",
                        to="teaching.cohort",
                        verbose_name="cohort",
                    ),
                ),
            ],
            database_operations=[],
        ),
    ]
