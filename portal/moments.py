"""A moment as its reader reads it: in the active time zone, with the zone's name."""

from django.utils import dateformat, formats, timezone


def moment_text(moment) -> str:
    """The moment as plain text, for a message or a name: "Dec. 3, 2026, 9:05 p.m. JST"."""
    local = timezone.localtime(moment)
    return f"{formats.date_format(local, 'DATETIME_FORMAT')} {dateformat.format(local, 'T')}"
