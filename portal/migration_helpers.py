"""Helpers for migrations that move a model between apps while keeping its table."""


def content_type_move(*, model: str, old_app: str, new_app: str):
    """A RunPython pair that relabels the model's content type, so its permissions
    (and the groups holding them) and admin log entries follow the model."""

    def relabel(source: str, target: str):
        def run(apps, schema_editor):
            ContentType = apps.get_model("contenttypes", "ContentType")
            types = ContentType.objects.using(schema_editor.connection.alias)
            # A fresh database may have no content type yet: post_migrate creates it.
            if not types.filter(app_label=target, model=model).exists():
                types.filter(app_label=source, model=model).update(app_label=target)
            from django.contrib.contenttypes.models import ContentType as Live

            Live.objects.clear_cache()

        return run

    return relabel(old_app, new_app), relabel(new_app, old_app)
