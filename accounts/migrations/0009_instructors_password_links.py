"""The "Instructors" group may make new-password links for their cohorts' learners (and
see them): accounts.admin.PasswordLinkAdmin limits them to those learners."""

from django.db import migrations

GROUP = "Instructors"
PERMISSIONS = ["add_passwordlink", "view_passwordlink"]


def grant(apps, schema_editor):
    from django.contrib.auth.management import create_permissions

    # Permissions are normally created after all migrations; make sure they exist now.
    app_config = apps.get_app_config("accounts")
    app_config.models_module = True
    create_permissions(app_config, apps=apps, verbosity=0)
    app_config.models_module = None

    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name=GROUP)
    for codename in PERMISSIONS:
        group.permissions.add(
            Permission.objects.get(
                content_type__app_label="accounts",
                content_type__model="passwordlink",
                codename=codename,
            )
        )


def revoke(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    group = Group.objects.filter(name=GROUP).first()
    if group is not None:
        group.permissions.remove(
            *group.permissions.filter(codename__in=PERMISSIONS)
        )


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0008_password_link"),
        ("teaching", "0002_instructors_group"),
    ]

    operations = [migrations.RunPython(grant, revoke)]
