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

from portal.counters import Taken, count_back, count_take

MINUTE = timedelta(minutes=1)


def answer_pace_take(user) -> Taken:
    """Count one answer of `user` in this minute (`answer_pace_within` says whether it
    is one too many); what `answer_pace_give_back` takes back."""
    return count_take(_key(user), MINUTE)


def answer_pace_within(taken: Taken) -> bool:
    return taken.count <= settings.ANSWERS_PER_MINUTE


def answer_pace_give_back(user, taken: Taken) -> None:
    """Take back the count of an answer that stored nothing (a double click's second
    post, a retry after a lost reply): only what is stored counts against the pace. Only
    in the minute it was counted in: one given back after that minute ended would leave
    the next minute one more answer."""
    count_back(_key(user), taken)


def _key(user) -> str:
    # date_joined: a new account that reuses a deleted one's id starts its own count.
    return f"answer-pace:{user.pk}:{user.date_joined.timestamp()}"
