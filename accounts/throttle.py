"""The login throttle: per username and address, a higher ceiling per username, a
back-off instead of a hard lock, and the owner's own browser exempt from the latter.

Why not django-axes: it checks the lock before the password and records the failure
after it, so tries sent in parallel all pass the check while the hasher runs (its
issue #592, closed "known issue, won't fix"). Here an attempt is counted, under a row
lock, before the password is checked: of 30 parallel tries, 5 are checked.

Why three keys: a lock on the username alone lets anyone lock anyone out by name. The
(username, address) key holds the guesser's address after 5 failures; the username key
holds the account after 50, a distributed guess that needs ten addresses; the address
key, whatever the username, holds an address after 30, so that one client cannot try a
few passwords on each of many accounts, nor keep the server hashing passwords for
usernames it makes up (the hasher runs for unknown usernames too). 30 leaves room for a
classroom behind one address, whose learners mistype their passwords now and then. An IPv6
address counts by its /64, which one host commonly owns whole: otherwise one machine
would be 2^64 addresses. Addresses come from REMOTE_ADDR, which the trusted-proxy
middleware sets to the client's address behind a proxy.

Why a back-off: a learner who mistypes a password five times waits one minute, not a
quarter of an hour; each further failure doubles the wait, up to 15 minutes, so a
guesser still gets about four tries an hour per key. The count starts over after 15
quiet minutes once the wait is over, or at a success from that address.

Why a known-device cookie: the username key would still let ten addresses keep anyone's
account, the superuser's included, locked by name. A successful login leaves a signed
cookie in the browser that marks the account (`DEVICE_COOKIE`, a year); a try from that
browser for that account is not counted on, nor held by, the username key, the address
key or the (username, address) key a classmate behind the same address fills by typing
the owner's name, only by a (username, "device " + address) key of its own. The mark
is a keyed hash of the username, not the username: whoever reads the cookie (a shared
computer, a backup of a browser profile) learns no account name from it. It is signed
with SECRET_KEY, so it cannot be forged, and it carries no password or session: a stolen
one gains a guesser only the per-address allowance. An owner on a new browser waits out
the account's back-off like anyone.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac

from portal.counters import count_up

from .models import LoginThrottle
from .services import login_key

# Failures allowed within WINDOW before tries are held back.
FAILURES_PER_ADDRESS = 5
FAILURES_PER_ACCOUNT = 50
FAILURES_PER_ADDRESS_ANY_ACCOUNT = 30
# The username of the address key: login_key() strips white space, so no username
# typed at a login is ever " *".
ANY_ACCOUNT = " *"
WINDOW = timedelta(minutes=15)
# The first wait at the ceiling, doubled with each further failure, up to BACK_OFF_MAX.
BACK_OFF_FIRST = timedelta(minutes=1)
BACK_OFF_MAX = timedelta(minutes=15)

DEVICE_COOKIE = "known_device"
DEVICE_COOKIE_AGE = timedelta(days=365)
DEVICE_SALT = "accounts.throttle.device"
# The address part of a known device's key ("device 192.0.2.1"): no address starts so.
DEVICE_ADDRESS = "device "


@dataclass(frozen=True)
class LoginTicket:
    """A counted attempt: given back with `login_attempt_finish` once the check is done."""

    username: str
    address: str
    known_device: bool = False
    locked_until: datetime | None = None
    # The username part of the key that refused the try: ANY_ACCOUNT when the address
    # is held whatever the username (the audit log then keeps one row for them all).
    held_by: str = ""


def address_key(address: str | None) -> str:
    """The address a try is counted under: an IPv4 address as it is, an IPv6 one by its
    /64 ("2001:db8:1:2::/64"), an IPv4-mapped IPv6 one as the IPv4 address."""
    try:
        parsed = ipaddress.ip_address((address or "").strip())
    except ValueError:
        return (address or "")[:45]
    if parsed.version == 6:
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False))
    return str(parsed)


def back_off(failures: int, ceiling: int) -> timedelta:
    """How long a key is held once it has `failures` (at least `ceiling`)."""
    doublings = min(failures - ceiling, 10)
    return min(BACK_OFF_FIRST * 2**doublings, BACK_OFF_MAX)


def _device_mark(username: str) -> str:
    """What the cookie holds for an account: a keyed hash of its login key."""
    return salted_hmac(DEVICE_SALT, login_key(username), algorithm="sha256").hexdigest()[:32]


def device_known(request, username: str) -> bool:
    """Whether this browser logged in to `username` before (its signed cookie)."""
    if request is None:
        return False
    mark = request.get_signed_cookie(
        DEVICE_COOKIE, default=None, salt=DEVICE_SALT, max_age=DEVICE_COOKIE_AGE
    )
    return mark is not None and constant_time_compare(mark, _device_mark(username))


def device_cookie_set(response, username: str) -> None:
    response.set_signed_cookie(
        DEVICE_COOKIE,
        _device_mark(username),
        salt=DEVICE_SALT,
        max_age=int(DEVICE_COOKIE_AGE.total_seconds()),
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )


def _keys(ticket: LoginTicket) -> list[tuple[str, str, int]]:
    # Always the same order, so two attempts lock the rows without deadlocking. The
    # address's key first: a held address refuses a made-up username before any row is
    # made for it (red team round 7: each one made two).
    keys = []
    if not ticket.known_device and ticket.address:  # no address: no key holding them all
        keys.append((ANY_ACCOUNT, ticket.address, FAILURES_PER_ADDRESS_ANY_ACCOUNT))
    keys.append((ticket.username, ticket.address, FAILURES_PER_ADDRESS))
    if not ticket.known_device:
        keys.append((ticket.username, "", FAILURES_PER_ACCOUNT))
    return keys


def _quiet(row: LoginThrottle, now: datetime) -> bool:
    """Whether a key's count starts over: its window is past and so is a quarter of an
    hour after its last wait."""
    return row.window_start + WINDOW <= now and (
        row.locked_until is None or row.locked_until + WINDOW <= now
    )


def login_attempt_begin(
    *, username: str, address: str | None, known_device: bool = False
) -> LoginTicket:
    """Count one attempt before the password is checked; the ticket says if it is refused.
    `known_device`: the browser's cookie names this account (see the module's docstring)."""
    address_ = address_key(address)
    if known_device:  # its own key: a guesser at this address cannot hold it
        address_ = f"{DEVICE_ADDRESS}{address_}"[:45]
    ticket = LoginTicket(login_key(username), address_, known_device)
    now = timezone.now()
    with transaction.atomic():
        rows = []
        for user_key, address_key_, ceiling in _keys(ticket):
            LoginThrottle.objects.get_or_create(
                username=user_key, address=address_key_, defaults={"window_start": now}
            )
            row = LoginThrottle.objects.select_for_update().get(
                username=user_key, address=address_key_
            )
            if row.locked_until is not None and row.locked_until > now:
                return replace(ticket, locked_until=row.locked_until, held_by=user_key)
            if _quiet(row, now):
                row.failures, row.window_start, row.locked_until = 0, now, None
            if row.failures >= ceiling and row.locked_until is None:
                # Attempts still being checked fill the allowance: refuse for now,
                # without a wait of its own (their outcome decides it).
                return replace(ticket, locked_until=now + BACK_OFF_FIRST, held_by=user_key)
            rows.append(row)
        for row in rows:
            if row.locked_until is not None:
                # A wait that is over allows one try, in a window of its own; its
                # failure sets a longer wait.
                row.window_start, row.locked_until = now, None
            row.failures += 1
            row.save(update_fields=["failures", "window_start", "locked_until"])
        # Old rows go with the attempts that come after them; logins are rare enough.
        LoginThrottle.objects.filter(
            Q(locked_until__isnull=True) | Q(locked_until__lt=now - WINDOW),
            window_start__lt=now - WINDOW - BACK_OFF_MAX,
        ).delete()
    return ticket


def login_attempt_finish(*, ticket: LoginTicket, succeeded: bool) -> None:
    """Give a successful attempt back; hold a key whose failures reached its ceiling."""
    if ticket.locked_until is not None:
        return
    with transaction.atomic():
        if succeeded:
            # The right password from this address clears its failures for this
            # account; the account's and the address's counts only get this attempt
            # back, so a guesser elsewhere, or on other accounts, gains nothing.
            LoginThrottle.objects.filter(username=ticket.username, address=ticket.address).update(
                failures=0, locked_until=None
            )
            for user_key, address_key_, _ceiling in _keys(ticket):
                if (user_key, address_key_) == (ticket.username, ticket.address):
                    continue  # cleared above
                LoginThrottle.objects.filter(
                    username=user_key, address=address_key_, failures__gt=0
                ).update(failures=F("failures") - 1)
            return
        now = timezone.now()
        for user_key, address_key_, ceiling in _keys(ticket):
            row = (
                LoginThrottle.objects.select_for_update()
                .filter(username=user_key, address=address_key_, failures__gte=ceiling)
                .first()
            )
            if row is not None and (row.locked_until is None or row.locked_until <= now):
                row.locked_until = now + back_off(row.failures, ceiling)
                row.save(update_fields=["locked_until"])


# A setup or invite link's form: each refused username says whether an account has that
# name, so one link would otherwise list the portal's accounts, one post at a time.
# Past LINK_FAILURES posts within LINK_WINDOW the link's form is held until the window
# ends. A post that is not refused uses the link up, so every post counted is a refused
# one but the last. Counted before the form is checked, so parallel posts cannot all pass
# a count read first (red team round 7: 21 of 40 parallel posts were checked), where
# every worker sees the count (portal/counters.py).
LINK_FAILURES = 20
LINK_WINDOW = timedelta(minutes=15)


def link_form_take(token_hash: str) -> bool:
    """Count one post of the form of the link with `token_hash`; False when it is held
    (one too many), and is not to be checked."""
    return count_up(f"link-posts:{token_hash}", LINK_WINDOW) <= LINK_FAILURES
