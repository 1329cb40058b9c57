"""Each standing carries its first attempt's moment (LearnerQuestion.first_answered_at),
filled for the standings already there."""

from django.db import migrations, models
from django.db.models import OuterRef, Subquery


def backfill(apps, schema_editor):
    """Copy each standing's first attempt's moment onto it, as the services do, in one
    UPDATE."""
    LearnerQuestion = apps.get_model("progress", "LearnerQuestion")
    Attempt = apps.get_model("progress", "Attempt")
    first = Attempt.objects.filter(pk=OuterRef("first_attempt_id")).values("created_at")[:1]
    LearnerQuestion.objects.update(first_answered_at=Subquery(first))


class Migration(migrations.Migration):

    dependencies = [
        ("progress", "0016_attempt_doubts_backfill"),
    ]

    # Added empty, filled, then required: a standing always has a first attempt.
    operations = [
        migrations.AddField(
            model_name="learnerquestion",
            name="first_answered_at",
            field=models.DateTimeField(null=True, verbose_name="first answered at"),
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="learnerquestion",
            name="first_answered_at",
            field=models.DateTimeField(verbose_name="first answered at"),
        ),
    ]
