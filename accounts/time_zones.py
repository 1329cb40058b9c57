"""The learner's time zone: chosen on the profile, else reported by the browser.

Dates are stored in UTC and shown in this zone, with its abbreviation, so a date is
never an unlabelled UTC time. The zone's "today" is also the day reviews fall due.
"""

from functools import lru_cache
from urllib.parse import unquote
from zoneinfo import ZoneInfo, available_timezones

from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

SESSION_TIME_ZONE = "time_zone"
COOKIE = "tz"  # set by static/js/tz.js from Intl.DateTimeFormat().resolvedOptions()


@lru_cache(maxsize=1)
def time_zone_names() -> frozenset[str]:
    return frozenset(available_timezones())


def time_zone_label(name: str) -> str:
    """A zone as a person reads it: "America/Mexico City", not the identifier's
    "America/Mexico_City"; the list on /time-zone/ and the sentences naming the zone agree."""
    return name.replace("_", " ")


def time_zone_validate(name: str) -> None:
    if name and name not in time_zone_names():
        raise ValidationError(_("Unknown time zone: %(name)s"), params={"name": name})


def time_zone_for(request) -> ZoneInfo | None:
    """The profile's zone (kept in the session at login), else the browser's cookie."""
    session = getattr(request, "session", None)
    for name in (
        session.get(SESSION_TIME_ZONE) if session is not None else None,
        # Browsers that ran an older tz.js stored the zone percent-encoded (Asia%2FTokyo).
        unquote(request.COOKIES.get(COOKIE, "")[:96])[:64],
    ):
        if name and name in time_zone_names():
            return ZoneInfo(name)
    return None


class TimeZoneMiddleware:
    """Activate the learner's time zone for the request (UTC when none is known)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        zone = time_zone_for(request)
        if zone is None:
            timezone.deactivate()
        else:
            timezone.activate(zone)
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()
