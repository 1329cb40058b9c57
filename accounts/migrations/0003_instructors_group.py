"""The "Instructors" group: staff who look at results, invite learners and regrade,
and change nothing else."""

from django.db import migrations

GROUP = "Instructors"
PERMISSIONS = [
    ("auth", "user", "view_user"),
    ("accounts", "invite", "view_invite"),
    ("accounts", "invite", "add_invite"),
    ("accounts", "auditevent", "view_auditevent"),
    ("progress", "cohort", "view_cohort"),
    ("progress", "attempt", "view_attempt"),
    ("progress", "regrade", "view_regrade"),
    ("progress", "regrade", "run_regrade"),
    ("quizzes", "phase", "view_phase"),
    ("quizzes", "question", "view_question"),
    ("quizzes", "questionrevision", "view_questionrevision"),
]


def create_group(apps, schema_editor):
    from django.contrib.auth.management import create_permissions

    # Permissions are normally created after all migrations; make sure they exist now.
    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None

    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name=GROUP)
    for app_label, model, codename in PERMISSIONS:
        group.permissions.add(
            Permission.objects.get(
                content_type__app_label=app_label, content_type__model=model, codename=codename
            )
        )


def remove_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=GROUP).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0002_invite_cohort"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("progress", "0002_cohort_regrade"),
        ("quizzes", "0001_initial"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_group, remove_group)]
