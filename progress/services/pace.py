"""How fast one learner may send answers.

Every answer is stored for good, so a script with a learner's login could otherwise add
answers as fast as the server takes them (a red-team run stored 39 a second, ~1.7 GB an
hour) and fill the database and that learner's pages. No person answers more than
`settings.ANSWERS_PER_MINUTE` (30) a minute; a faster one is refused with the text kept.
Counted where every worker sees the count (`portal/counters.py`): Redis, or without it
the database.
"""

from datetime import timedelta

from django.conf import settings

from portal.counters import count_up

MINUTE = timedelta(minutes=1)


def answer_pace_take(user) -> bool:
    """Count one answer of `user` in this minute; False when it is one too many."""
    # date_joined: a new account that reuses a deleted one's id starts its own count.
    key = f"answer-pace:{user.pk}:{user.date_joined.timestamp()}"
    return count_up(key, MINUTE) <= settings.ANSWERS_PER_MINUTE
