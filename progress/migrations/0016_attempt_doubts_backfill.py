"""Copy the grader's doubts kept in each attempt's feedback into the new column. An
attempt graded before the grader said when it was unsure has none: it stays sure."""

from django.db import migrations


def backfill(apps, schema_editor):
    Attempt = apps.get_model("progress", "Attempt")
    # Only free answers graded since the doubts were recorded carry the key; the
    # rest are read once and left alone.
    unsure = []
    rows = Attempt.objects.filter(answer__has_key="text").values_list("pk", "feedback")
    for pk, feedback in rows.iterator(chunk_size=2000):
        doubts = (feedback or {}).get("doubts") or []
        if doubts:
            unsure.append((pk, ",".join(doubts)[:64]))
    for pk, doubts in unsure:
        Attempt.objects.filter(pk=pk).update(doubts=doubts)


class Migration(migrations.Migration):
    dependencies = [("progress", "0015_attempt_doubts_confirm")]

    operations = [migrations.RunPython(backfill, migrations.RunPython.noop)]
