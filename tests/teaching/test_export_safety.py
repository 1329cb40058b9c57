"""The CSV export never hands a spreadsheet a formula a learner typed."""

import pytest

from teaching.export import csv_safe


@pytest.mark.parametrize(
    ("typed", "exported"),
    [
        ("=HYPERLINK(3 sigma)", "'=HYPERLINK(3 sigma)"),
        ("-0.5", "'-0.5"),
        (" =1+1", " '=1+1"),
        ("\n=1+1", "\n'=1+1"),
        ("＝1+1", "'＝1+1"),  # full width: some spreadsheets read it as "="
        ("|calc", "'|calc"),
        # Small, superscript and subscript forms, which NFKC reads as the signs (red
        # team 16), and a byte-order mark before one.
        ("\ufe661+1", "'\ufe661+1"),
        ("⁼1+1", "'⁼1+1"),
        ("₊1", "'₊1"),
        # What no reader sees is taken out first, as from an answer sent today: a
        # byte-order mark or a zero-width space before a sign hides nothing, and an
        # answer stored before control characters were taken out (red team 21) brings
        # no escape sequence to the terminal that shows the file.
        ("\ufeff=1+1", "'=1+1"),
        ("\u200b=1+1", "'=1+1"),
        ("2 si\x1b[2Jgma", "2 si[2Jgma"),
        ("a\u2028b\x85c", "a\nb\nc"),
        # A Spanish-locale spreadsheet splits at ";": no piece may start a formula.
        (";=1+1;", ";'=1+1;"),
        ("the norm; =SUM(A1)", "the norm; '=SUM(A1)"),
        ("\tplain", "'\tplain"),
        ("3 sigma above the mean", "3 sigma above the mean"),
        ("a-b = c", "a-b = c"),  # no formula can start mid-word
    ],
)
def test_csv_cells_cannot_start_a_formula(typed, exported):
    assert csv_safe(typed) == exported


def test_csv_safe_leaves_numbers_alone():
    assert csv_safe(3) == 3
