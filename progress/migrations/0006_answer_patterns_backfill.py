"""Fill answer patterns for attempts and standings stored before the columns existed."""

from django.db import migrations


def pattern_of(attempt):
    answer = attempt.answer or {}
    if "keys" in answer:
        return "".join(sorted(answer["keys"]))[:64]
    return ",".join(str(i) for i in (attempt.feedback or {}).get("missed", []))[:64]


def backfill(apps, schema_editor):
    Attempt = apps.get_model("progress", "Attempt")
    LearnerQuestion = apps.get_model("progress", "LearnerQuestion")
    patterns, batch = {}, []
    for attempt in Attempt.objects.only("id", "answer", "feedback").iterator():
        attempt.pattern = patterns[attempt.pk] = pattern_of(attempt)
        batch.append(attempt)
        if len(batch) >= 5000:
            Attempt.objects.bulk_update(batch, ["pattern"])
            batch = []
    Attempt.objects.bulk_update(batch, ["pattern"])
    standings = list(LearnerQuestion.objects.all())
    for standing in standings:
        standing.first_pattern = patterns.get(standing.first_attempt_id, "")
        standing.latest_pattern = patterns.get(standing.latest_attempt_id, "")
    LearnerQuestion.objects.bulk_update(
        standings, ["first_pattern", "latest_pattern"], batch_size=5000
    )


class Migration(migrations.Migration):
    dependencies = [("progress", "0005_answer_patterns")]

    operations = [migrations.RunPython(backfill, migrations.RunPython.noop)]
