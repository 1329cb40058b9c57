"""Cohort moves here from progress; its tables (progress_cohort and its two member
tables) stay as they are."""

import django.utils.timezone
from django.conf import settings
from django.db import migrations, models

from portal.migration_helpers import content_type_move


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("progress", "0008_review_cards"),
        ("accounts", "0003_instructors_group"),
        ("contenttypes", "0002_remove_content_type_name"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Cohort",
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
                        ("name", models.CharField(max_length=150, unique=True, verbose_name="name")),
                        (
                            "created_at",
                            models.DateTimeField(
                                default=django.utils.timezone.now, verbose_name="created at"
                            ),
                        ),
                        (
                            "instructors",
                            models.ManyToManyField(
                                blank=True,
                                related_name="cohorts_taught",
                                to=settings.AUTH_USER_MODEL,
                                verbose_name="instructors",
                            ),
                        ),
                        (
                            "learners",
                            models.ManyToManyField(
                                blank=True,
                                related_name="cohorts",
                                to=settings.AUTH_USER_MODEL,
                                verbose_name="learners",
                            ),
                        ),
                    ],
                    options={
                        "verbose_name": "cohort",
                        "verbose_name_plural": "cohorts",
                        "db_table": "progress_cohort",
                        "ordering": ["name"],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(*content_type_move(model="cohort", old_app="progress", new_app="teaching")),
    ]
