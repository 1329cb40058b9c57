"""`{{ moment|time_tag }}`: a moment as the learner reads it, in one `<time>` element;
`{{ zone|zone_label }}`: a time zone's name as the time zone list shows it.

The same as `<time datetime="{{ m|date:'Y-m-d\\TH:i:sO' }}">{{ m|date:"DATETIME_FORMAT" }}
{{ m|date:"T" }}</time>`, converted to the active time zone once instead of three
times: the feedback and the history show it on every answer. The spaces in the hour
and before the zone do not break. A zone with no abbreviation says its offset ("UTC−5"),
not the "-05" the date filter writes.
"""

import re

from django import template
from django.utils import dateformat, formats, timezone
from django.utils.html import format_html

from accounts.time_zones import time_zone_label

register = template.Library()

# A zone with no abbreviation of its own has its offset for one ("-05", "+0545"): read as
# a stray number after the hour, it says "UTC−5", "UTC+5:45" (UX walk 36).
OFFSET_NAME = re.compile(r"([+-])(\d\d)(\d\d)?")


def _zone_name(local) -> str:
    name = dateformat.format(local, "T")
    offset = OFFSET_NAME.fullmatch(name)
    if offset is None:
        return name
    sign, hours, minutes = offset.groups()
    minutes = f":{minutes}" if minutes and minutes != "00" else ""
    return f"UTC{'−' if sign == '-' else '+'}{int(hours)}{minutes}"


@register.filter
def time_tag(moment) -> str:
    if not moment:
        return ""
    local = timezone.template_localtime(moment)
    shown = formats.date_format(local, "DATETIME_FORMAT")
    # The hour, its "a.m." and the zone keep to one line (no-break spaces): on a phone
    # "CET" or "p.m." started a line of its own. Both languages' formats end in the time.
    hour = formats.time_format(local, "TIME_FORMAT")
    if shown.endswith(hour):
        shown = shown[: -len(hour)] + hour.replace(" ", "\u00a0")
    return format_html(
        '<time datetime="{}">{}\u00a0{}</time>',
        local.strftime("%Y-%m-%dT%H:%M:%S%z"),  # Y-m-d\TH:i:sO, twenty times quicker
        shown,
        _zone_name(local),
    )


@register.filter
def zone_label(name) -> str:
    return time_zone_label(str(name))
