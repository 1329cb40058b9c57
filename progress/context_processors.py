"""The review badge in the header: how many of the learner's cards are due today."""

from django.utils.functional import SimpleLazyObject

from .models import ReviewCard
from .reviews import day_end


def reviews_due(request):
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    # Lazy: one COUNT on the queue index, run only when a page shows the badge.
    return {
        "reviews_due": SimpleLazyObject(
            lambda: ReviewCard.objects.due_before(day_end()).filter(learner=user).count()
        )
    }
