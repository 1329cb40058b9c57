"""Build learner standings for attempts stored before the table existed."""

from django.db import migrations


def backfill(apps, schema_editor):
    Attempt = apps.get_model("progress", "Attempt")
    Regrade = apps.get_model("progress", "Regrade")
    LearnerQuestion = apps.get_model("progress", "LearnerQuestion")
    newest = {}
    for regrade in Regrade.objects.order_by("id"):
        newest[regrade.attempt_id] = (regrade.new_correct, regrade.new_score)
    grouped = {}
    for attempt in Attempt.objects.order_by("id").iterator():
        grouped.setdefault((attempt.learner_id, attempt.question_id), []).append(attempt)
    for (learner_id, question_id), items in grouped.items():
        grades = [newest.get(a.pk, (a.correct, a.score)) for a in items]
        LearnerQuestion.objects.create(
            learner_id=learner_id,
            question_id=question_id,
            attempts=len(items),
            first_attempt=items[0],
            latest_attempt=items[-1],
            first_correct=grades[0][0],
            latest_correct=grades[-1][0],
            ever_correct=any(g[0] for g in grades),
            latest_score=grades[-1][1],
        )


class Migration(migrations.Migration):
    dependencies = [("progress", "0003_learner_question")]

    operations = [migrations.RunPython(backfill, migrations.RunPython.noop)]
