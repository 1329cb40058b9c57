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
