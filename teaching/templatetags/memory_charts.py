"""Presentation of the cohort's memory: the heat map (learners × questions, coloured by
predicted recall) as server-drawn SVG, and its colour scale. The selector returns
numbers only; every learner-typed value is escaped here."""

from django import template
from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from portal.numbers import percent_range_text, percent_text
from teaching.memory import HORIZON_DAYS

register = template.Library()

# Lower bounds of each colour band, with its fill and the number's colour on it; a
# red–blue scale that reads without telling red from green.
BANDS = (
    (0.9, "#2166ac", "#fff"),
    (0.8, "#92c5de", "#000"),
    (0.7, "#fddbc7", "#000"),
    (0.5, "#ef8a62", "#000"),
    (0.0, "#b2182b", "#fff"),
)
NOT_SEEN_FILL = "#f3f4f6"
NAME_WIDTH, CELL_WIDTH, CELL_HEIGHT, HEAD_HEIGHT, RIGHT_MARGIN = 150, 30, 20, 64, 44
NAME_CHARS = 20


def band(value: float) -> tuple[str, str]:
    """(fill, text colour) for a recall from 0 to 1."""
    for lower, fill, ink in BANDS:
        if value >= lower:
            return fill, ink
    return BANDS[-1][1], BANDS[-1][2]


def percent(value: float) -> str:
    return percent_text(share=value)  # as the rest of the admin writes a percentage


@register.simple_tag
def memory_legend() -> list[dict]:
    """The scale's bands, for the legend: label and fill, highest first."""
    uppers = [100] + [round(b[0] * 100) for b in BANDS[:-1]]
    return [
        {"label": percent_range_text(low=round(b[0] * 100), high=upper), "fill": b[1]}
        for upper, b in zip(uppers, BANDS, strict=True)
    ]


@register.simple_tag
def not_seen_fill() -> str:
    return NOT_SEEN_FILL


def _short(name: str) -> str:
    """A long name cut in the middle: names alike often differ at the end."""
    if len(name) <= NAME_CHARS:
        return name
    head = (NAME_CHARS - 1) // 2
    return name[:head] + "…" + name[-(NAME_CHARS - 1 - head) :]


@register.simple_tag
def heat_map(memory, rows) -> str:
    """The SVG: one row per learner of `rows` (a page), one column per question of the
    heat map's phase, each cell coloured by the recall in a week. A row is a link to the
    learner's attempts: focused or hovered, it shows each cell's figure; each cell's
    title gives both figures."""
    questions = memory.questions
    width = NAME_WIDTH + CELL_WIDTH * len(questions) + RIGHT_MARGIN
    height = HEAD_HEIGHT + CELL_HEIGHT * len(rows) + 2
    base = reverse("admin:teaching_cohort_learner", args=[memory.cohort.pk, 0])[: -len("0/")]
    not_seen = _("not seen")
    parts = [
        f'<svg class="heat" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
        f'role="group" aria-label="{escape(_("Predicted recall by learner and question"))}">'
    ]
    for index, question in enumerate(questions):
        x = NAME_WIDTH + index * CELL_WIDTH + CELL_WIDTH // 2
        parts.append(
            f'<text class="code" transform="translate({x - 4} {HEAD_HEIGHT - 6}) rotate(-45)" '
            f'font-size="10" aria-hidden="true">{escape(question.code)}</text>'
        )
    for row_index, learner in enumerate(rows):
        y = HEAD_HEIGHT + row_index * CELL_HEIGHT
        label = _("%(learner)s: %(n)d at risk in a week") % {
            "learner": learner.username,
            "n": learner.at_risk,
        }
        parts.append(
            f'<a href="{base}{int(learner.learner_id)}/" aria-label="{escape(label)}">'
            f'<rect class="row" x="0" y="{y}" width="{width - RIGHT_MARGIN}" '
            f'height="{CELL_HEIGHT}" fill="transparent"/>'
            f'<text x="4" y="{y + 14}" font-size="11">{escape(_short(learner.username))}</text>'
        )
        for index, question in enumerate(questions):
            x = NAME_WIDTH + index * CELL_WIDTH
            cell = memory.cells.get((learner.learner_id, question.pk))
            if cell is None:
                title = f"{question.code}: {not_seen}"
                parts.append(
                    f'<rect x="{x + 1}" y="{y + 1}" width="{CELL_WIDTH - 2}" '
                    f'height="{CELL_HEIGHT - 2}" fill="{NOT_SEEN_FILL}">'
                    f"<title>{escape(title)}</title></rect>"
                    f'<text class="none" x="{x + CELL_WIDTH // 2}" y="{y + 14}" font-size="10" '
                    f'text-anchor="middle" aria-hidden="true">–</text>'
                )
                continue
            now, week = cell
            fill, ink = band(week)
            title = _("%(question)s: now %(now)s, in %(days)d days %(week)s") % {
                "question": question.code,
                "now": percent(now),
                "days": HORIZON_DAYS,
                "week": percent(week),
            }
            parts.append(
                f'<rect x="{x + 1}" y="{y + 1}" width="{CELL_WIDTH - 2}" '
                f'height="{CELL_HEIGHT - 2}" fill="{fill}"><title>{escape(title)}</title></rect>'
                f'<text class="v" x="{x + CELL_WIDTH // 2}" y="{y + 14}" font-size="10" '
                f'text-anchor="middle" fill="{ink}">{round(week * 100)}</text>'
            )
        parts.append("</a>")
    parts.append("</svg>")
    return mark_safe("".join(parts))  # noqa: S308 - every interpolated text is escaped


@register.simple_tag
def heat_table_rows(memory, rows) -> str:
    """The heat map as a table body, its text alternative: "now → in a week" per cell."""
    not_seen = escape(_("not seen"))
    parts = []
    for learner in rows:
        cells = []
        for question in memory.questions:
            cell = memory.cells.get((learner.learner_id, question.pk))
            if cell is None:
                cells.append(f'<td class="not-seen">{not_seen}</td>')
            else:
                cells.append(f"<td>{percent(cell[0])} → {percent(cell[1])}</td>")
        parts.append(f'<tr><th scope="row">{escape(learner.username)}</th>{"".join(cells)}</tr>')
    return mark_safe("".join(parts))  # noqa: S308 - every interpolated text is escaped
