"""An answer as safe HTML with the words that matched marked in place."""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe


def highlight_html(*, text: str, spans: Iterable[tuple[int, int]]) -> SafeString:
    """Escape `text` and wrap each (start, end) span in <mark>; overlapping or touching
    spans are merged and spans outside the text are clipped, so the HTML stays valid."""
    merged: list[list[int]] = []
    for start, end in sorted(spans):
        start, end = max(0, start), min(len(text), end)
        if start >= end:
            continue
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    parts, position = [], 0
    for start, end in merged:
        parts.append(escape(text[position:start]))
        parts.append(f"<mark>{escape(text[start:end])}</mark>")
        position = end
    parts.append(escape(text[position:]))
    # Every piece of the learner's text went through escape() above.
    return mark_safe("".join(parts))  # noqa: S308
