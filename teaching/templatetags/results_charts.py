"""Presentation of the cohort results: the learner table's rows, the SVG pictures'
geometry and colours. Kept out of the selectors, which return numbers only."""

from decimal import Decimal

from django import template
from django.urls import reverse
from django.utils import formats, translation
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

register = template.Library()

# Colours of a phase in a learner's progress strip, from nothing right to all right.
STRIP_FILLS = ("#e5e7eb", "#c6e6cf", "#8fd19e", "#4caf6d", "#1a7f37")
STRIP_STEP = 16
# The histogram: bar width and step, the tallest bar's height and the baseline; the
# space above the tallest bar leaves room for its count.
BAR_WIDTH, BAR_STEP, BAR_HEIGHT, BAR_BASE = 28, 32, 110, 130
COMPLETION_ROW, COMPLETION_WIDTH = 22, 300


def strip_fill(correct: int, total: int) -> str:
    """Greener is more right."""
    if not total or not correct:
        return STRIP_FILLS[0]
    return STRIP_FILLS[1 + min(3, int(4 * correct / total - 1e-9))]


@register.simple_tag
def learner_rows(results, cohort_pk: int, rows) -> str:
    """The learner × phase table body. Built here rather than in a template loop: a
    thousand learners × ten phases is ten thousand cells, which the template engine
    renders several times slower than this. Every learner-typed value is escaped."""
    total = len(results.questions)
    width = max(1, len(results.phases)) * STRIP_STEP
    base = reverse("admin:teaching_cohort_learner", args=[cohort_pk, 0])[: -len("0/")]
    parts = []
    for row in rows:
        strip = "".join(
            f'<rect x="{i * STRIP_STEP}" y="1" width="14" height="10" '
            f'fill="{strip_fill(cell.correct, cell.total)}"/>'
            for i, cell in enumerate(row.cells)
        )
        cells = "".join(
            f'<td>{cell.correct}/{cell.total} <span class="answered">({cell.answered})</span></td>'
            for cell in row.cells
        )
        parts.append(
            f'<tr><th scope="row"><a href="{base}{int(row.learner_id)}/">'
            f"{escape(row.username)}</a></th>"
            f"<td>{row.correct} / {total}</td><td>{row.due} / {row.overdue}</td>"
            f'<td><svg class="strip" width="{width}" height="12" viewBox="0 0 {width} 12" '
            f'aria-hidden="true">{strip}</svg></td>{cells}</tr>'
        )
    return mark_safe("".join(parts))  # noqa: S308 - every interpolated text is escaped


@register.simple_tag
def histogram_bars(histogram) -> list[dict]:
    """Geometry of the score histogram's bars: (label, count) pairs in, SVG numbers out."""
    top = max((n for _label, n in histogram), default=0) or 1
    bars = []
    for index, (label, n) in enumerate(histogram):
        h = round(BAR_HEIGHT * n / top)
        x = index * BAR_STEP
        bars.append(
            {
                "x": x,
                "mid": x + BAR_WIDTH // 2,
                "y": BAR_BASE - h,
                "h": h,
                "label_y": BAR_BASE - h - 3,
                "label": label,
                "n": n,
                "tick": index * 10,
            }
        )
    return bars


@register.simple_tag
def completion_bars(completion) -> list[dict]:
    return [
        {
            "phase": phase,
            "share": share,
            "w": round(COMPLETION_WIDTH * share),
            "y": index * COMPLETION_ROW + 3,
            "text_y": index * COMPLETION_ROW + 14,
        }
        for index, (phase, share) in enumerate(completion)
    ]


@register.simple_tag
def completion_height(completion) -> int:
    return COMPLETION_ROW * len(completion) + 4


# A numeric question's histogram: narrower bars than the scores', in the items table.
VALUE_BAR, VALUE_STEP, VALUE_HEIGHT, VALUE_BASE = 16, 19, 44, 52
RIGHT_FILL, WRONG_FILL = "#1a7f37", "#417690"


def _number(value: Decimal) -> str:
    return formats.number_format(value.normalize(), use_l10n=True)


@register.simple_tag
def value_bars(numeric) -> dict:
    """Geometry of a numeric question's histogram of values given (NumericAnswers):
    {"width", "bars": [{x, y, h, n, fill, right, mark_x, mark_y, label}], "from", "to" and
    where they go}. Bars holding right values are green and marked ✓ over their top;
    each bar's label says the values it counts,
    in the viewer's number format."""
    bins = numeric.bins()
    top = max((b.answers for b in bins), default=0) or 1
    bars = []
    for index, b in enumerate(bins):
        h = round(VALUE_HEIGHT * b.answers / top)
        if b.edge == "below":
            label = _("below %(value)s") % {"value": _number(b.high)}
        elif b.edge == "above":
            label = _("above %(value)s") % {"value": _number(b.low)}
        else:
            label = f"{_number(b.low)} – {_number(b.high)}"
        bars.append(
            {
                "x": index * VALUE_STEP,
                "y": VALUE_BASE - h,
                "h": h,
                "n": b.answers,
                "fill": RIGHT_FILL if b.right else WRONG_FILL,
                # Green and the blue are alike without hue: a check mark over the bar
                # says it too, as ✓ marks the right options beside it.
                "right": b.right,
                "mark_x": index * VALUE_STEP + VALUE_BAR // 2,
                "mark_y": VALUE_BASE - h - 1,
                "label": label,
            }
        )
    middle = [b for b in bins if not b.edge]
    return {
        "width": max(1, len(bars)) * VALUE_STEP,
        "bars": bars,
        # The ends of the bins in between, under their first and last bars.
        "from": _number(middle[0].low) if middle else "",
        "from_x": (1 if bins and bins[0].edge else 0) * VALUE_STEP,
        "to": _number(middle[-1].high) if middle else "",
        "to_x": (len(bins) - (1 if bins and bins[-1].edge else 0)) * VALUE_STEP - 3,
    }


@register.simple_tag
def common_wrong_values(numeric, revision) -> list[dict]:
    """The wrong values given most often, formatted with the question's unit."""
    unit = revision.unit(translation.get_language() or "en")
    return [
        {"value": f"{_number(value)} {unit}".strip(), "n": n, "share": share}
        for value, n, share in numeric.common_wrong
    ]
