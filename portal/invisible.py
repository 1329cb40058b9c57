"""Characters a reader cannot see, for text people type (answers, reasons, usernames).

Format characters (Unicode category Cf: soft hyphen, zero-width space, joiner and
non-joiner, direction marks, embeddings, overrides and isolates, word joiner, byte-order
mark, Mongolian vowel separator, tags), the combining grapheme joiner and variation
selectors mostly change nothing a reader sees, yet one inside a word hides it from the
grader ("si\u00adgma") or shows an instructor a reversed text as a plain one: they are
taken out, and so are control characters (Cc) but NUL, the tab and line ends. Letters
that draw as blank space (the Hangul fillers) become a space, and the other line breaks
(vertical tab, form feed, NEL, Unicode's line and paragraph separators) a line end. What
is lost is not English or Spanish: a few Cf signs that do show in Arabic and other
scripts (the Arabic number signs), and an emoji's presentation selector ("❤️" → "❤").
"""

import unicodedata

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

# The format characters outside the first plane, where the scan below does not look.
_SUPPLEMENTARY = [
    0x110BD,
    0x110CD,
    *range(0x13430, 0x13440),
    *range(0x1BCA0, 0x1BCA4),
    *range(0x1D173, 0x1D17B),
    *range(0xE0000, 0xE0080),  # tags
    *range(0xE0100, 0xE01F0),  # variation selectors supplement
]
_NON_FORMAT = [0x034F, *range(0x180B, 0x1810), *range(0xFE00, 0xFE10)]  # joiners, selectors
_BLANK_LETTERS = [0x115F, 0x1160, 0x3164, 0xFFA0]  # Hangul fillers: drawn as nothing
# Control characters (Cc) but NUL (refused where it matters, with a message), the tab and
# the line ends: a box or nothing on a page, and a word break to the grader ("si\x1bgma"),
# or an escape sequence in a terminal showing the CSV export.
_LINE_BREAKS = [0x0B, 0x0C, 0x85, 0x2028, 0x2029]  # Word's line break, NEL, separators
_CONTROLS = [
    cp
    for cp in [*range(0x01, 0x20), *range(0x7F, 0xA0)]
    if cp not in (0x09, 0x0A, 0x0D) and cp not in _LINE_BREAKS
]

# str.translate's table: about 170 first-plane characters, read once at import (~10 ms).
TABLE: dict[int, str | None] = {
    **dict.fromkeys(
        [cp for cp in range(0x10000) if unicodedata.category(chr(cp)) == "Cf"]
        + _SUPPLEMENTARY
        + _NON_FORMAT
        + _CONTROLS
    ),
    **dict.fromkeys(_BLANK_LETTERS, " "),
    **dict.fromkeys(_LINE_BREAKS, "\n"),
}


def visible(text: str) -> str:
    """`text` without the characters a reader cannot see (this module's docstring)."""
    return text.translate(TABLE)


def has_invisible(text: str) -> bool:
    return any(ord(char) in TABLE for char in text)


def refuse_invisible(value: str) -> None:
    """A model field's validator: a name with a character a reader cannot see (a
    right-to-left override that shows "Spring" for "gnirpS", a zero-width space that
    makes two names look one) is refused."""
    if has_invisible(value):
        raise ValidationError(
            _("This name has characters that cannot be seen. Type it again."), code="invisible"
        )
