"""Each review card carries its scheduler's stability and last rating as columns
(ReviewCard.stability, rated_at), filled from the JSON for the cards already there."""

from django.db import migrations, models
from django.db.models.fields.json import KT
from django.db.models.functions import Cast


def backfill(apps, schema_editor):
    """Copy each card's JSON stability and last review. On PostgreSQL in one UPDATE (its
    casts are exact: microseconds, and the decimal the JSON holds); elsewhere in Python,
    as the scheduler wrote them (SQLite's cast keeps milliseconds only)."""
    from datetime import datetime

    ReviewCard = apps.get_model("progress", "ReviewCard")
    if schema_editor.connection.vendor == "postgresql":
        ReviewCard.objects.update(
            stability=Cast(KT("fsrs__stability"), models.FloatField()),
            rated_at=Cast(KT("fsrs__last_review"), models.DateTimeField()),
        )
        return
    batch = []
    for card in ReviewCard.objects.only("id", "fsrs").order_by("id").iterator(chunk_size=500):
        last = card.fsrs.get("last_review")
        card.stability = card.fsrs.get("stability")
        card.rated_at = datetime.fromisoformat(last) if last else None
        batch.append(card)
        if len(batch) == 500:  # bulk_update's CASE grows with the batch, per row
            ReviewCard.objects.bulk_update(batch, ["stability", "rated_at"])
            batch = []
    ReviewCard.objects.bulk_update(batch, ["stability", "rated_at"])


class Migration(migrations.Migration):

    dependencies = [
        ("progress", "0017_learner_question_first_answered_at"),
    ]

    operations = [
        migrations.AddField(
            model_name="reviewcard",
            name="stability",
            field=models.FloatField(blank=True, null=True, verbose_name="stability"),
        ),
        migrations.AddField(
            model_name="reviewcard",
            name="rated_at",
            field=models.DateTimeField(blank=True, null=True, verbose_name="last rated at"),
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop),
    ]
