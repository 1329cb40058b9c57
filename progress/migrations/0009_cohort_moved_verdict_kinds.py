"""Cohort moved to the teaching app (state only; its tables stay). Regrade entries gain
a kind (regrade or an instructor's override) and a reason; an override names no
revision."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("progress", "0008_review_cards"),
        ("quizzes", "0001_initial"),
        ("accounts", "0004_auditevent_and_cohort_moved"),
        ("teaching", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="Cohort")],
            database_operations=[],
        ),
        migrations.AddField(
            model_name="regrade",
            name="kind",
            field=models.CharField(
                choices=[
                    ("answer", "as answered"),
                    ("regrade", "regrade"),
                    ("override", "instructor's override"),
                ],
                default="regrade",
                max_length=16,
                verbose_name="kind",
            ),
        ),
        migrations.AddField(
            model_name="regrade",
            name="reason",
            field=models.CharField(blank=True, max_length=500, verbose_name="reason"),
        ),
        migrations.AlterField(
            model_name="regrade",
            name="revision",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="regrades",
                to="quizzes.questionrevision",
                verbose_name="graded against",
            ),
        ),
        migrations.AddConstraint(
            model_name="regrade",
            constraint=models.CheckConstraint(
                condition=models.Q(("kind", "override"), ("revision__isnull", False), _connector="OR"),
                name="regrade_has_revision",
            ),
        ),
    ]
