"""The login throttle: per username and address, with a higher ceiling per username.

Why not django-axes: it checks the lock before the password and records the failure
after it, so tries sent in parallel all pass the check while the hasher runs (its
issue #592, closed "known issue, won't fix"). Here an attempt is counted, under a row
lock, before the password is checked: of 30 parallel tries, 5 are checked.

Why two keys: a lock on the username alone lets anyone lock anyone out by name. The
(username, address) key locks the guesser's address after 5 failures; the username key
locks the account for everyone only after 50, a distributed guess that needs ten
addresses. Addresses come from REMOTE_ADDR, which the trusted-proxy middleware sets to
the client's address behind a proxy.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from .models import LoginThrottle
from .services import login_key

# Failures allowed within WINDOW before tries are refused for LOCK.
FAILURES_PER_ADDRESS = 5
FAILURES_PER_ACCOUNT = 50
WINDOW = timedelta(minutes=15)
LOCK = timedelta(minutes=15)


@dataclass(frozen=True)
class LoginTicket:
    """A counted attempt: given back with `login_attempt_finish` once the check is done."""

    username: str
    address: str
    locked_until: datetime | None = None


def _keys(username: str, address: str) -> list[tuple[str, str, int]]:
    # Always the same order, so two attempts lock the rows without deadlocking.
    return [(username, address, FAILURES_PER_ADDRESS), (username, "", FAILURES_PER_ACCOUNT)]


def login_attempt_begin(*, username: str, address: str | None) -> LoginTicket:
    """Count one attempt before the password is checked; the ticket says if it is refused."""
    username, address, now = login_key(username), (address or "")[:45], timezone.now()
    with transaction.atomic():
        rows = []
        for user_key, address_key, ceiling in _keys(username, address):
            LoginThrottle.objects.get_or_create(
                username=user_key, address=address_key, defaults={"window_start": now}
            )
            row = LoginThrottle.objects.select_for_update().get(
                username=user_key, address=address_key
            )
            if row.locked_until is not None and row.locked_until > now:
                return LoginTicket(username, address, locked_until=row.locked_until)
            if row.locked_until is not None or row.window_start + WINDOW <= now:
                row.failures, row.window_start, row.locked_until = 0, now, None
            if row.failures >= ceiling:
                # Attempts still being checked fill the allowance: refuse for now,
                # without a lock of its own (their outcome decides it).
                return LoginTicket(username, address, locked_until=now + LOCK)
            rows.append(row)
        for row in rows:
            row.failures += 1
            row.save(update_fields=["failures", "window_start", "locked_until"])
        # Old rows go with the attempts that come after them; logins are rare enough.
        LoginThrottle.objects.filter(
            Q(locked_until__isnull=True) | Q(locked_until__lt=now),
            window_start__lt=now - WINDOW - LOCK,
        ).delete()
    return LoginTicket(username, address)


def login_attempt_finish(*, ticket: LoginTicket, succeeded: bool) -> None:
    """Give a successful attempt back; lock a key whose failures reached its ceiling."""
    if ticket.locked_until is not None:
        return
    keys = _keys(ticket.username, ticket.address)
    with transaction.atomic():
        if succeeded:
            # The right password from this address clears its failures; the account's
            # count only gets this attempt back, so a guesser elsewhere gains nothing.
            LoginThrottle.objects.filter(username=ticket.username, address=ticket.address).update(
                failures=0
            )
            LoginThrottle.objects.filter(
                username=ticket.username, address="", failures__gt=0
            ).update(failures=F("failures") - 1)
            return
        now = timezone.now()
        for user_key, address_key, ceiling in keys:
            LoginThrottle.objects.filter(
                username=user_key,
                address=address_key,
                failures__gte=ceiling,
                locked_until__isnull=True,
            ).update(locked_until=now + LOCK)
