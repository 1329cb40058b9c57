"""time_tag: the three date filters the pages used, in one conversion."""

from datetime import UTC, datetime

import pytest
from django.template import Context, Template
from django.utils import timezone, translation

from portal.templatetags.when import time_tag

THREE_FILTERS = Template(
    "<time datetime=\"{{ m|date:'Y-m-d\\TH:i:sO' }}\">"
    '{{ m|date:"DATETIME_FORMAT" }} {{ m|date:"T" }}</time>'
)


def test_time_tag_reads_as_the_three_date_filters_in_the_active_zone_and_language():
    moment = datetime(2026, 3, 29, 0, 30, tzinfo=UTC)  # Madrid's clocks change that night
    for zone, language in [("Europe/Madrid", "es"), ("Asia/Tokyo", "en"), ("UTC", "en")]:
        with timezone.override(zone), translation.override(language):
            shown = time_tag(moment).replace("\u00a0", " ")  # its no-break spaces: below

            assert shown == THREE_FILTERS.render(Context({"m": moment}))


def test_time_tag_of_nothing_is_empty():
    assert time_tag(None) == ""


@pytest.mark.parametrize(
    ("language", "zone", "shown"),
    [
        ("en", "Asia/Tokyo", ">Jan. 6, 2027, 8:30\u00a0a.m.\u00a0JST</time>"),
        ("es", "Europe/Madrid", ">6 de enero de 2027 a las 00:30\u00a0CET</time>"),
    ],
)
def test_a_time_keeps_its_hour_and_zone_on_one_line(language, zone, shown):
    """On a phone the feedback's "3 tries · latest Dec. 7, 2026, 3:25 p.m. CET" broke
    before "CET", and could break before "p.m.": an hour on one line, its half on the
    next. The date still breaks where it must."""
    moment = datetime(2027, 1, 5, 23, 30, tzinfo=UTC)

    with timezone.override(zone), translation.override(language):
        tag = time_tag(moment)

    assert tag.endswith(shown)


@pytest.mark.parametrize(
    ("language", "zone", "shown"),
    [
        ("en", "America/Bogota", ">Jan. 5, 2027, 6:30\u00a0p.m.\u00a0UTC−5</time>"),
        ("es", "America/Bogota", ">5 de enero de 2027 a las 18:30\u00a0UTC−5</time>"),
        ("en", "Asia/Kolkata", ">Jan. 6, 2027, 5\u00a0a.m.\u00a0IST</time>"),
        ("en", "Asia/Kathmandu", ">Jan. 6, 2027, 5:15\u00a0a.m.\u00a0UTC+5:45</time>"),
    ],
)
def test_a_zone_with_no_abbreviation_reads_as_its_offset_from_utc(language, zone, shown):
    """(UX walk 36) A learner in Bogotá read "6:30 p.m. -05": a zone with no
    abbreviation has its offset for a name, which reads as a stray number. It now says
    "UTC−5", as zone pickers do."""
    moment = datetime(2027, 1, 5, 23, 30, tzinfo=UTC)

    with timezone.override(zone), translation.override(language):
        tag = time_tag(moment)

    assert tag.endswith(shown)
