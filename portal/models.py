"""The project's one table: counts that bound what a client may do in a window,
shared by every worker when the cache is not (`portal/counters.py`)."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class WindowCount(models.Model):
    """How many times `key` happened since the window that ends at `expires_at` began."""

    key = models.CharField(_("key"), max_length=200, unique=True)
    count = models.PositiveIntegerField(_("count"), default=0)
    expires_at = models.DateTimeField(_("expires at"), db_index=True)

    class Meta:
        verbose_name = _("window count")
        verbose_name_plural = _("window counts")

    def __str__(self) -> str:
        return f"{self.key}: {self.count}"
