"""`{% verdicts_waiting as cohorts %}`: the cohorts whose verdicts wait for the user on
the admin's first page, so an instructor is asked as soon as they log in, not only once
they open the cohorts' list."""

from django import template

from teaching.models import Cohort
from teaching.to_check import to_check_counted

register = template.Library()


@register.simple_tag(takes_context=True)
def verdicts_waiting(context) -> list[Cohort]:
    """The cohorts the request's user teaches (every one for a superuser) with verdicts
    to check, by name, each with `n_to_check`; none for whoever may not see cohorts.
    One query."""
    user = context["request"].user
    if not user.has_perm("teaching.view_cohort"):
        return []
    cohorts = Cohort.objects.taught_by(user).annotate(n_to_check=to_check_counted())
    return list(cohorts.filter(n_to_check__gt=0).order_by("name"))
