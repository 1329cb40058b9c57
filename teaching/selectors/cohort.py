"""A cohort's learners and attempts, as the other selectors and the export read them."""

from django.core.exceptions import EmptyResultSet
from django.db import connection
from django.db.models import Count, OuterRef, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce

from progress.models import Attempt
from progress.selectors import checkable

from ..models import Cohort, memberships


def raw_rows(queryset) -> list[tuple]:
    """A values_list queryset's rows, fetched without the ORM's converters; none for one
    that can match nothing (`phase__in=[]`: no quiz imported yet), which has no SQL."""
    try:
        sql, params = queryset.query.sql_with_params()
    except EmptyResultSet:
        return []
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def cohort_learner_ids(cohort):
    """The cohort's learner ids as a subquery (`cohort`: a Cohort, or an expression such
    as OuterRef("pk") inside a subquery). Staff accounts (an instructor trying the
    quizzes) are left out of every figure."""
    return memberships(cohort=cohort).values("user_id")


def learners_counted():
    """An expression for a cohort queryset's `annotate`: how many learners it has, a
    subquery per row. Staff in its learners are left out, as of the results and every
    other figure: an instructor added as a member would make the list say 3 and the
    results 2."""
    members = memberships(cohort=OuterRef("pk")).order_by()
    counted = members.annotate(one=Value(1)).values("one").annotate(n=Count("pk")).values("n")
    return Coalesce(Subquery(counted), 0)


def cohort_attempts(*, cohort: Cohort):
    return Attempt.objects.filter(learner_id__in=cohort_learner_ids(cohort))


def learner_attempts(*, cohort: Cohort, learner_id: int) -> QuerySet[Attempt]:
    """Every attempt of one cohort member, newest first, with regrades and `checkable`
    (the attempt To check would show: progress.selectors.checkable): a query, for the
    page to read one page of (a learner may have thousands)."""
    return (
        cohort_attempts(cohort=cohort)
        .filter(learner_id=learner_id)
        .annotate(checkable=checkable())
        .select_related("question", "question__phase", "revision")
        .prefetch_related("regrades")
        .order_by("-id")
    )


def attempt_page(attempts: QuerySet[Attempt], query, per_page: int) -> str | int | None:
    """The page of `learner_attempts` (newest first, `per_page` a page) to show for a
    drill-down's `query`: the one it asks for (`?page=`), else the one holding the
    attempt `?attempt=` names, so a link to an old attempt of a learner with many opens
    the page it is on (its anchor is there); else the first."""
    attempt = query.get("attempt", "")
    if query.get("page") or not (attempt.isascii() and attempt.isdigit() and len(attempt) < 19):
        return query.get("page")
    if not attempts.filter(pk=int(attempt)).exists():
        return None
    return attempts.filter(pk__gt=int(attempt)).count() // per_page + 1
