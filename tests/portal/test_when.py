"""time_tag: the three date filters the pages used, in one conversion."""

from datetime import UTC, datetime

from django.template import Context, Template
from django.utils import timezone, translation

from portal.templatetags.when import time_tag

THREE_FILTERS = Template(
    "<time datetime=\"{{ m|date:'Y-m-d\\TH:i:sO' }}\">"
    '{{ m|date:"DATETIME_FORMAT" }} {{ m|date:"T" }}</time>'
)


def test_time_tag_reads_as_the_three_date_filters_in_the_active_zone_and_language():
    moment = datetime(2026, 3, 29, 0, 30, tzinfo=UTC)  # Madrid's clocks change that night
    for zone, language in [("Europe/Madrid", "es"), ("America/Bogota", "en"), ("UTC", "en")]:
        with timezone.override(zone), translation.override(language):
            assert time_tag(moment) == THREE_FILTERS.render(Context({"m": moment}))


def test_time_tag_of_nothing_is_empty():
    assert time_tag(None) == ""
