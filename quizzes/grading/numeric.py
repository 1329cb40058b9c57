"""Numeric answers: reading a number as a learner writes it, in English or Spanish, and
judging it against a value with a tolerance. Pure functions, no Django.

The rules (docs/quiz-format.md, "Numeric answers"):
- one decimal mark, a point or a comma, whatever the language: 3.5 and 3,5 are the same;
- thousands are grouped only with spaces (normal, thin or no-break) or underscores, in
  groups of three: 2 415 919 104, 2_415_919_104;
- a point or comma followed by exactly three digits after one to three digits that are
  not all zero (1,000 or 12.500) is ambiguous, a decimal or a thousands mark, and refused;
  1000, 1 000, 1.0, 1,5, 0,125 and 1.2500 are not;
- two marks (1,000.5, 1.000.000) are refused: group with spaces instead;
- an exponent: 2.4e9, 2,4E-3 (a magnitude from 1e-99 to 1e99); a sign: +3.5, -3.5, −3.5;
  a power of ten written out (3×10^-4, 3·10⁻⁴) is refused, told its e form (3e-4);
- after the number, the question's unit if it has one ("3.5 GB", case ignored).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Context, Decimal, InvalidOperation

__all__ = [
    "NumberRefused",
    "NumericKey",
    "number_read",
    "numeric_key",
    "numeric_right",
]

# Spaces a number may be grouped with: normal, no-break, thin, narrow no-break.
GROUP_SPACES = " \u00a0\u2009\u202f"
MINUS = "-\u2212"  # hyphen-minus and the minus sign
MAX_CHARS = 100  # no quantity needs more; longer text is not read as a number
PLAIN_CHARS = 40  # longer plain readings are written in scientific notation
MAX_EXPONENT = 99  # a value's magnitude: from 1e-99 to 1e99, far past any quantity asked

_NUMBER = re.compile(
    r"""
    (?P<sign>[+\-\u2212])?
    (?P<int>\d[\d \u00a0\u2009\u202f_]*)?        # digits, perhaps grouped
    (?:(?P<mark>[.,])(?P<frac>\d*))?             # one decimal mark and its digits
    (?:[eE](?P<exp>[+\-\u2212]?\d+))?           # an exponent (bounded: MAX_CHARS)
    """,
    re.VERBOSE,
)
_GROUPED = re.compile(r"\d{1,3}(?:[ \u00a0\u2009\u202f_]\d{3})+")
# A power of ten written out, "3·10⁻⁴", "3×10^-4", "3 x 10^(-4)", "10⁻⁴": refused (an
# answer is read one way, with e), but told how to write it with e, not to drop a unit.
_POWER = re.compile(
    r"""
    (?:(?P<mantissa>[+\-\u2212]?[\d.,]*\d)\s*[×xX·⋅∙*]\s*)?10\s*
    (?:(?:\^|\*\*)\s*(?P<paren>\()?\s*(?P<sign>[+\-\u2212])?\s*(?P<exp>\d+)\s*(?(paren)\))
      |(?P<supsign>[⁺⁻])?(?P<supexp>[⁰¹²³⁴⁵⁶⁷⁸⁹]+))
    """,
    re.VERBOSE,
)
_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-")


class NumberRefused(ValueError):
    """Text that is not read as a number. `reason` says why, for the learner's message:
    "empty", "ambiguous" (a mark that may be a thousands mark), "marks" (more than one
    point or comma), "groups" (spaces or underscores not in groups of three), "unit"
    (a unit that is not the question's), "long" (over MAX_CHARS characters), "range"
    (a magnitude past MAX_EXPONENT: "1e400" is a slip, not a quantity), "power" (a power
    of ten written out, "3·10⁻⁴": `written` is the same with e, "3e-4") or "unreadable"."""

    def __init__(self, reason: str, text: str = "", written: str = ""):
        self.reason = reason
        self.text = text
        self.written = written
        super().__init__(f"{reason}: {text!r}")


def _power_written(power: re.Match) -> str:
    """A power of ten written out, as it is written with e: "3·10⁻⁴" is "3e-4"."""
    sign = (power["sign"] or power["supsign"] or "").translate(_SUPERSCRIPTS)
    exponent = power["exp"] or power["supexp"].translate(_SUPERSCRIPTS)
    minus = "-" if sign and sign in MINUS else ""
    return f"{power['mantissa'] or '1'}e{minus}{exponent}"


@dataclass(frozen=True)
class NumericKey:
    """A numeric question's key: the right value and how far an answer may be from it."""

    answer: Decimal
    tolerance: Decimal  # absolute, or a percentage of |answer| when `relative`
    relative: bool = False
    units: tuple[str, ...] = ()  # the unit in each language, as written

    @property
    def margin(self) -> Decimal:
        """The largest distance from `answer` still right."""
        if self.relative:
            return abs(self.answer) * self.tolerance / 100
        return self.tolerance


def numeric_key(spec: Mapping) -> NumericKey:
    """The key stored on a revision ({"answer": 3.5, "tolerance": "5%", "unit": {...}})."""
    tolerance = spec.get("tolerance") or 0
    relative = isinstance(tolerance, str) and tolerance.strip().endswith("%")
    if relative:
        tolerance = tolerance.strip()[:-1].strip()  # "8 %", as Spanish writes it
    unit = spec.get("unit") or {}
    units = (unit,) if isinstance(unit, str) else tuple(u for u in unit.values() if u)
    return NumericKey(
        answer=_decimal(spec["answer"]),
        tolerance=_decimal(tolerance),
        relative=relative,
        units=tuple(dict.fromkeys(u.strip() for u in units)),
    )


def _decimal(value) -> Decimal:
    # str() first: Decimal(0.1) is 0.1000000000000000055…, Decimal("0.1") is 0.1.
    return Decimal(str(value))


def _strip_unit(text: str, units: tuple[str, ...]) -> str:
    """`text` without a trailing unit of the question's; a unit of another kind (any
    letters left after the number) is refused."""
    folded = text.casefold()
    for unit in sorted(units, key=len, reverse=True):
        if unit and folded.endswith(unit.casefold()):
            return text[: len(text) - len(unit)].rstrip(GROUP_SPACES)
    return text


def number_read(text: str, *, units: tuple[str, ...] = ()) -> Decimal:
    """The number `text` says, by the rules in this module's docstring; raises
    NumberRefused with the reason otherwise."""
    text = text.strip().strip(GROUP_SPACES)
    if not text:
        raise NumberRefused("empty", text)
    if len(text) > MAX_CHARS:
        raise NumberRefused("long", text)
    number = _strip_unit(text, units)
    match = _NUMBER.fullmatch(number)
    if match is None or not (match["int"] or match["frac"]):
        if power := _POWER.fullmatch(number):
            raise NumberRefused("power", text, written=_power_written(power))
        if re.fullmatch(r"[+\-\u2212]?[\d.,]+(?:[eE][+\-\u2212]?\d+)?", number):
            raise NumberRefused("marks", text)
        digits = re.match(r"[+\-\u2212]?[\d.,  \u00a0\u2009\u202f_]*\d", number)
        if digits and re.search(r"[^\W\d_]", number[digits.end() :]):
            raise NumberRefused("unit", text)
        raise NumberRefused("unreadable", text)
    whole = (match["int"] or "").rstrip(GROUP_SPACES + "_")
    if whole != (match["int"] or ""):
        raise NumberRefused("unreadable", text)  # "3 " before a mark: "3 ,5"
    grouped = any(c in whole for c in GROUP_SPACES + "_")
    if grouped and not _GROUPED.fullmatch(whole):
        raise NumberRefused("groups", text)
    digits = re.sub(r"\D", "", whole)
    if (
        match["mark"]
        and not grouped
        and len(match["frac"]) == 3
        and 1 <= len(digits) <= 3
        and digits.strip("0")
    ):
        raise NumberRefused("ambiguous", text)
    exponent = (match["exp"] or "0").replace("\u2212", "-")
    # The digits before the exponent move the magnitude by at most MAX_CHARS: past that,
    # no value is in range (and Decimal's context would overflow).
    if abs(int(exponent)) > MAX_EXPONENT + MAX_CHARS:
        raise NumberRefused("range", text)
    sign = "-" if match["sign"] and match["sign"] in MINUS else ""
    try:
        value = Decimal(f"{sign}{digits or '0'}.{match['frac'] or '0'}e{exponent}")
    except InvalidOperation:  # pragma: no cover - the pattern admits only digits
        raise NumberRefused("unreadable", text) from None
    if not magnitude_readable(value):
        raise NumberRefused("range", text)
    return value


def magnitude_readable(value: Decimal) -> bool:
    """Whether `value` is 0 or its magnitude is from 1e-99 to 1e99, both included."""
    return not value or Decimal(f"1e-{MAX_EXPONENT}") <= abs(value) <= Decimal(f"1e{MAX_EXPONENT}")


def numeric_right(*, key: NumericKey, value: Decimal) -> bool:
    """Whether `value` is within the key's tolerance of its answer."""
    return abs(value - key.answer) <= key.margin


def normalized(value: Decimal) -> Decimal:
    """`value` without trailing zeros, every digit kept: Decimal's normalize() rounds to
    its context's 28 digits, and forty ones typed came back padded with zeros (walk 36)."""
    return value.normalize(Context(prec=max(len(value.as_tuple().digits), 1)))


def plain(value: Decimal) -> str:
    """`value` in plain notation without trailing zeros: the stored reading of an answer
    ("3.5", "2400000000", "-0.001"), one text for every way of writing one number."""
    if not value.is_finite():  # pragma: no cover - number_read makes finite values only
        return str(value)
    text = f"{normalized(value):f}"
    if len(text) > PLAIN_CHARS:  # 1e300 in scientific notation, not 301 digits
        return str(normalized(value))
    return "0" if text in ("-0", "0") else text
