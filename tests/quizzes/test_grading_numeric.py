"""Reading numbers as learners write them in English and Spanish, and numeric grading."""

from decimal import Decimal

import pytest

from quizzes.grading import grade
from quizzes.grading.numeric import NumberRefused, number_read, numeric_key, plain

READ = {
    "3.5": "3.5",
    "3,5": "3.5",
    "3.50": "3.5",
    "3,50": "3.5",
    "+3.5": "3.5",
    "-3.5": "-3.5",
    "\u22123,5": "-3.5",  # the minus sign
    "3.5e0": "3.5",
    "2.4e9": "2400000000",
    "2,4e9": "2400000000",
    "2,4E-3": "0.0024",
    "2 415 919 104": "2415919104",
    "2\u2009415\u2009919\u2009104": "2415919104",  # thin spaces
    "2\u202f415,5": "2415.5",  # narrow no-break space, decimal comma
    "2_415_919_104": "2415919104",
    "1000": "1000",
    "1 000": "1000",
    "1 000,500": "1000.5",  # grouped with a space: the comma can only be decimal
    "1.0": "1",
    "0,125": "0.125",
    "0.500": "0.5",
    "1.2500": "1.25",
    "1234.567": "1234.567",
    ".5": "0.5",
    "5.": "5",
    "  7  ": "7",
    "-0": "0",
    "1e90": "1E+90",
    "1e99": "1E+99",  # the largest magnitude read
    "-1e-99": "-1E-99",  # the smallest
    "0e-5": "0",
}


@pytest.mark.parametrize(("text", "value"), READ.items(), ids=list(READ))
def test_number_read_each_form_read_as_its_value(text, value):
    assert plain(number_read(text)) == value


UNITS = {
    "3.5 GB": "3.5",
    "3,5 GB": "3.5",
    "3.5GB": "3.5",
    "3.5 gb": "3.5",
    "2 415 919 104 bytes": "2415919104",
}


@pytest.mark.parametrize(("text", "value"), UNITS.items(), ids=list(UNITS))
def test_number_read_question_unit_after_number_accepted(text, value):
    assert plain(number_read(text, units=("GB", "bytes"))) == value


REFUSED = {
    "": "empty",
    "   ": "empty",
    "1,000": "ambiguous",
    "1.000": "ambiguous",
    "12,500": "ambiguous",
    "-999.999": "ambiguous",
    "1,000e3": "ambiguous",
    "1,000.5": "marks",
    "1.000.000": "marks",
    "1,000,000": "marks",
    "2 41 5": "groups",
    "2415 919": "groups",
    "1_0000": "groups",
    "3.5 MB": "unit",
    "7 apples": "unit",
    "about three": "unreadable",
    "three": "unreadable",
    "e9": "unreadable",
    "3 ,5": "unreadable",
    "3.5.": "marks",
    "1" * 101: "long",
    "1e400": "range",
    "-2.5e-100": "range",
    "9.9e99": "range",
    "1e99999999999999": "range",
    "0e99999999": "range",  # zero, written with an exponent no quantity has
    "0e400": "range",
    "10e999999": "range",  # past Decimal's own limit: an Overflow (a 500) before
}


@pytest.mark.parametrize(("text", "reason"), REFUSED.items(), ids=[k[:20] for k in REFUSED])
def test_number_read_ambiguous_or_unreadable_refused_with_reason(text, reason):
    with pytest.raises(NumberRefused) as refused:
        number_read(text, units=("GB",))

    assert refused.value.reason == reason


@pytest.mark.parametrize(
    ("text", "written"),
    [
        ("3·10⁻⁴", "3e-4"),
        ("3×10^-4", "3e-4"),
        ("3 x 10^(-4)", "3e-4"),
        ("3*10**-4", "3e-4"),
        ("1,4×10¹⁰", "1,4e10"),
        ("−2.5 × 10^+3", "−2.5e3"),
        ("10⁻⁴", "1e-4"),
        ("1.4×10^10 GB", "1.4e10"),
    ],
)
def test_number_read_a_power_of_ten_written_out_is_refused_with_its_e_form(text, written):
    """The question asks for "three times ten to the minus four": "3·10⁻⁴" was told to
    drop its unit (a superscript read as a letter), "3×10^-4" to write digits."""
    with pytest.raises(NumberRefused) as refused:
        number_read(text, units=("GB",))

    assert (refused.value.reason, refused.value.written) == ("power", written)


@pytest.mark.parametrize("text", ["104", "10", "3x", "3 x 104", "10^"])
def test_number_read_no_power_of_ten_without_its_exponent(text):
    try:
        number_read(text)
    except NumberRefused as refused:
        assert refused.reason != "power"


def test_number_read_unit_without_one_on_the_question_refused():
    with pytest.raises(NumberRefused) as refused:
        number_read("3.5 GB")

    assert refused.value.reason == "unit"


def test_numeric_key_relative_tolerance_is_a_share_of_the_answer():
    key = numeric_key({"answer": 14, "tolerance": "5%", "unit": {"en": "GB", "es": "GB"}})

    assert (key.answer, key.tolerance, key.relative, key.units) == (
        Decimal("14"),
        Decimal("5"),
        True,
        ("GB",),
    )
    assert key.margin == Decimal("0.7")


def verdict(text: str, **key) -> bool:
    return grade(kind="numeric", correct_keys=[], expected=[], pass_mentions=None, text=text,
                 numeric=key).correct  # fmt: skip


def test_grade_numeric_absolute_tolerance_bounds_included():
    key = {"answer": 3.5, "tolerance": 0.05}

    assert [verdict(t, **key) for t in ("3,45", "3.55", "3.551", "3.449", "3.5 ")] == [
        True,
        True,
        False,
        False,
        True,
    ]


def test_grade_numeric_relative_tolerance():
    key = {"answer": 14, "tolerance": "5%", "unit": {"en": "GB"}}

    assert [verdict(t, **key) for t in ("13.3 GB", "14,7", "13.2", "7 GB", "1.4e1")] == [
        True,
        True,
        False,
        False,
        True,
    ]


def test_grade_numeric_without_tolerance_exact_only():
    key = {"answer": 0.1}

    assert [verdict(t, **key) for t in ("0,1", "0.10", "1e-1", "0.1000001")] == [
        True,
        True,
        True,
        False,
    ]


def test_grade_numeric_unreadable_text_wrong_not_an_error():
    result = grade(
        kind="numeric",
        correct_keys=[],
        expected=[],
        pass_mentions=None,
        text="about three",
        numeric={"answer": 3},
    )

    assert (result.correct, result.score, result.partial) == (False, 0.0, 0.0)
