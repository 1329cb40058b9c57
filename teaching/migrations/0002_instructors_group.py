"""The "Instructors" group's permissions under the models' new homes (Cohort in
teaching, AuditEvent in audit). The content types were relabelled, so an existing
group already holds these; this makes a group that was emptied or never made whole."""

from django.db import migrations

GROUP = "Instructors"
PERMISSIONS = [
    ("auth", "user", "view_user"),
    ("accounts", "invite", "view_invite"),
    ("accounts", "invite", "add_invite"),
    ("audit", "auditevent", "view_auditevent"),
    ("teaching", "cohort", "view_cohort"),
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


class Migration(migrations.Migration):
    dependencies = [
        ("teaching", "0001_initial"),
        ("audit", "0001_initial"),
        ("accounts", "0004_auditevent_and_cohort_moved"),
        ("progress", "0009_cohort_moved_verdict_kinds"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_group, migrations.RunPython.noop)]
