"""Each standing says whether its learner has a review card for the question
(LearnerQuestion.has_card), filled for the standings already there."""

from django.db import migrations, models
from django.db.models import Exists, OuterRef


def backfill(apps, schema_editor):
    """Mark the standings whose pair has a card, in one UPDATE."""
    LearnerQuestion = apps.get_model("progress", "LearnerQuestion")
    ReviewCard = apps.get_model("progress", "ReviewCard")
    card = ReviewCard.objects.filter(
        learner_id=OuterRef("learner_id"), question_id=OuterRef("question_id")
    )
    LearnerQuestion.objects.filter(Exists(card)).update(has_card=True)


class Migration(migrations.Migration):

    dependencies = [
        ("progress", "0018_review_card_stability_rated_at"),
    ]

    operations = [
        migrations.AddField(
            model_name="learnerquestion",
            name="has_card",
            field=models.BooleanField(default=False, verbose_name="has a review card"),
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop),
    ]
