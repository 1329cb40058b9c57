"""The `seen` a confirm or an override form carries, read one way for both."""

import pytest
from django.http import QueryDict

from teaching.forms import seen_entry


@pytest.mark.parametrize(
    ("sent", "read"),
    [
        ("0", 0),  # shown with no entry standing
        ("42", 42),
        ("", -1),  # absent or unreadable: matches no entry, so the form is refused
        ("x", -1),
        ("-1", -1),
        (" 4", -1),
        ("١", -1),  # an Arabic-Indic one: int() would read it
        ("9" * 30, -1),  # past any id
    ],
)
def test_seen_is_an_entry_id_or_matches_none(sent, read):
    assert seen_entry(QueryDict(f"seen={sent}")) == read


def test_seen_absent_matches_none():
    assert seen_entry(QueryDict("")) == -1
