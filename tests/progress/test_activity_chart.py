"""The activity chart's day labels stay inside the chart."""

import re
from datetime import date, timedelta

from django.template import Context, Template

from progress.selectors.history import ActivityDay


def _chart(first: date) -> str:
    days = [
        ActivityDay(day=first + timedelta(days=n), answers=n % 3, right=n % 2) for n in range(28)
    ]
    return Template("{% load activity %}{% activity_chart days %}").render(Context({"days": days}))


def _labels(svg: str) -> list[tuple[str, str, str]]:
    return re.findall(r'<text class="tick" x="([^"]+)" y="[^"]+" text-anchor="(\w+)">([^<]+)<', svg)


def test_a_monday_on_the_first_day_is_labelled_from_the_left_edge():
    """Centred under the first bar, "Nov 9" started before the chart and read "9"
    (UX walk 17)."""
    labels = _labels(_chart(date(2026, 11, 9)))  # a Monday

    assert labels[0] == ("0", "start", "Nov 9")
    assert labels[-1] == ("560", "end", "Dec 6")
    assert all(anchor == "middle" for _x, anchor, _text in labels[1:-1])


def test_mondays_after_the_first_day_are_centred_under_their_bar():
    labels = _labels(_chart(date(2026, 11, 10)))  # a Tuesday: the first Monday is the 16th

    assert labels[0][1:] == ("middle", "Nov 16")
    assert float(labels[0][0]) > 100
