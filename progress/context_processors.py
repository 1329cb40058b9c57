"""The review badge in the header: how many of the learner's cards are due today.

Counted at most every few minutes per login, not on every page: the count and until
when it holds are kept in the session (which every page reads anyway). It holds until
the learner's day ends or a card falls due, and at most `BADGE_FRESH` so that an
instructor's regrade shows soon; a review answered takes one off (`reviews_due_reviewed`).
"""

from datetime import timedelta

from django.db.models import Count, Min, Q
from django.utils import timezone
from django.utils.functional import SimpleLazyObject

from .models import ReviewCard
from .reviews import day_end

SESSION_KEY = "reviews_due"
BADGE_FRESH = timedelta(minutes=5)


def reviews_due_count(*, learner, session) -> int:
    now = timezone.now()
    zone = timezone.get_current_timezone_name()
    kept = session.get(SESSION_KEY)
    if kept and kept[1] > now.timestamp() and kept[2] == zone:
        return kept[0]
    cutoff = day_end(now)
    counts = (
        ReviewCard.objects.in_review()
        .filter(learner=learner)
        .aggregate(
            # Named apart from the `due` field, which the filters read.
            due_now=Count("id", filter=Q(due__lt=cutoff)),
            next_due=Min("due", filter=Q(due__gte=cutoff)),
        )
    )
    next_due = counts["next_due"]
    until = min(cutoff, now + BADGE_FRESH, *([next_due] if next_due else []))
    session[SESSION_KEY] = [counts["due_now"], until.timestamp(), zone]
    return counts["due_now"]


def reviews_due_reviewed(session) -> None:
    """A due card was just reviewed: it is no longer due today. (Other answers leave
    the count as it is: a new card, or one brought back, falls due on a later day.)"""
    kept = session.get(SESSION_KEY)
    if kept:
        session[SESSION_KEY] = [max(kept[0] - 1, 0), *kept[1:]]


def reviews_due_forget(session) -> None:
    """Count again on the next page: the reviews page has just read which cards are due,
    and the header must not disagree with it (a kept count misses cards made due
    meanwhile other than by time: the README's demo, an instructor's regrade)."""
    if SESSION_KEY in session:
        del session[SESSION_KEY]


def reviews_due(request):
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    # Lazy: counted only when a page shows the badge.
    return {
        "reviews_due": SimpleLazyObject(
            lambda: reviews_due_count(learner=user, session=request.session)
        )
    }
