"""Figures as the pages show them: shares as whole percentages."""

import math

from django.utils.translation import gettext as _


def percent_whole(*, share: float) -> int:
    """A share (0.125) as a whole percentage, halves rounded up (13, not the 12 of
    round()'s halves to even). Rounded to 9 places first: 23 / 40 * 100 is
    57.49999999999999 as a float, and 57.5 % must show "58%"."""
    return math.floor(round(share * 100, 9) + 0.5)


def percent_text(*, share: float) -> str:
    """A share as the reader writes a percentage, whole and halves rounded up: "13%" in
    English, "13 %" in Spanish (a no-break space, so the sign never starts a line)."""
    return _("%(number)s%%") % {"number": percent_whole(share=share)}


def percent_range_text(*, low: int, high: int) -> str:
    """A range of whole percentages as the reader writes one: "70–80%" in English,
    "70–80 %" in Spanish, as `percent_text` writes a single one."""
    return _("%(low)s–%(high)s%%") % {"low": low, "high": high}
