"""How fast one learner may send answers.

Every answer is stored for good, so a script with a learner's login could otherwise add
answers as fast as the server takes them (a red-team run stored 39 a second, ~1.7 GB an
hour) and fill the database and that learner's pages. No person answers more than
`settings.ANSWERS_PER_MINUTE` (30) a minute; a faster one is refused with the text kept.
Counted in Django's cache: with Redis across every worker; in the embedded default per
worker process, which bounds the rate all the same.
"""

import time

from django.conf import settings
from django.core.cache import cache


def answer_pace_take(user) -> bool:
    """Count one answer of `user` in this minute; False when it is one too many."""
    minute = int(time.time() // 60)
    # date_joined: a new account that reuses a deleted one's id starts its own count.
    key = f"answer-pace:{user.pk}:{user.date_joined.timestamp()}:{minute}"
    try:
        count = cache.incr(key)  # the common case: one of this minute's later answers
    except ValueError:  # the minute's first answer; add() loses to a parallel first
        count = 1 if cache.add(key, 1, timeout=120) else cache.incr(key)
    return count <= settings.ANSWERS_PER_MINUTE
