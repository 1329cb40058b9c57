"""Model helpers shared by the apps."""

from django.db import models


class WriteOnce(models.Model):
    """A row written once and never changed: attempts, revisions, regrades and audit
    events are evidence, so save() refuses to update one. (QuerySet.update() bypasses
    this: a regrade rewrites an attempt's `doubts` so, teaching/services.py; nothing
    else of ours calls it on these models.)"""

    write_once_message = "This row is never modified once written."

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise ValueError(self.write_once_message)
        super().save(*args, **kwargs)
