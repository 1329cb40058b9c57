"""The learner's activity as a server-drawn SVG bar chart: geometry here, markup in
progress/_activity.html, colours in the stylesheet (the CSP allows no inline styles)."""

from django import template
from django.utils.translation import get_language

register = template.Library()

WIDTH, HEIGHT, TOP, BOTTOM = 560, 150, 22, 28


def _svg(number: float) -> str:
    """A number as SVG reads it. A float reaching the template would be localized
    ("543,0" in Spanish), and Chromium drops a bar whose x it cannot read."""
    return f"{number:g}"


@register.inclusion_tag("progress/_activity.html")
def activity_chart(days):
    """Bars per day: the whole bar is the answers, its lower part the right ones."""
    most = max((d.answers for d in days), default=0) or 1
    slot = WIDTH / max(len(days), 1)
    plot = HEIGHT - TOP - BOTTOM
    bars = []
    for index, day in enumerate(days):
        total_h = round(plot * day.answers / most, 1)
        right_h = round(plot * day.right / most, 1)
        x = round(index * slot + slot * 0.15, 1)
        bars.append(
            {
                "day": day,
                "x": _svg(x),
                "width": _svg(round(slot * 0.7, 1)),
                "total_y": _svg(round(TOP + plot - total_h, 1)),
                "total_h": _svg(total_h),
                "right_y": _svg(round(TOP + plot - right_h, 1)),
                "right_h": _svg(right_h),
                # Under its bar, but the first day's from the left edge: centred, it
                # would start before the chart and lose its day ("9 nov" read "nov").
                "label_x": _svg(round(x + slot * 0.35, 1)) if index else "0",
                "label_anchor": "middle" if index else "start",
                "monday": day.day.weekday() == 0,
            }
        )
    return {
        "bars": bars,
        "width": WIDTH,
        "height": HEIGHT,
        "baseline": HEIGHT - BOTTOM,
        "label_y": HEIGHT - 8,
        "answers": sum(d.answers for d in days),
        "right": sum(d.right for d in days),
        "most": most,
        # A day and its month's abbreviation, in the order the page's other dates have
        # ("Nov 9" beside "Dec. 7, 2026"; walk 36 read "9 Nov" there), and in Spanish,
        # whose month names are not capitalised, "9 nov".
        "month_day": "j b" if (get_language() or "en").startswith("es") else "M j",
    }
