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
        ("\ufeff=1+1", "\ufeff'=1+1"),
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
