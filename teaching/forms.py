"""Forms of the instructors' admin pages."""

from django import forms
from django.utils.translation import gettext_lazy as _

from progress.models import Regrade


class VerdictOverrideForm(forms.Form):
    """An instructor's verdict on one attempt: right or wrong, and why."""

    verdict = forms.ChoiceField(
        label=_("Verdict"),
        choices=[("right", _("right")), ("wrong", _("wrong"))],
        widget=forms.RadioSelect,
    )
    reason = forms.CharField(
        label=_("Reason (shown to the learner)"),
        max_length=Regrade._meta.get_field("reason").max_length,
    )


def seen_entry(post) -> int:
    """The standing verdict entry a confirm or override form was shown with (its `seen`:
    `Attempt.verdict_entry_id`, 0 for none), compared under the lock with the one that
    stands: a verdict recorded since (another tab, another instructor, a regrade) refuses
    the form. Absent or unreadable, it is -1, which matches no entry."""
    seen = post.get("seen", "")
    return int(seen) if seen.isascii() and seen.isdigit() and len(seen) < 19 else -1
