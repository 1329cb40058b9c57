"""The Spanish catalog is complete and the UI really switches language."""

from pathlib import Path

import polib
import pytest
from django.utils import translation

PO = Path(__file__).resolve().parent.parent / "locale" / "es" / "LC_MESSAGES" / "django.po"


def test_spanish_catalog_has_no_untranslated_or_fuzzy_entries():
    catalog = polib.pofile(str(PO))

    assert [e.msgid for e in catalog.untranslated_entries()] == []
    assert [e.msgid for e in catalog.fuzzy_entries()] == []


@pytest.mark.parametrize(("language", "expected"), [("en", "Phases"), ("es", "Fases")])
def test_compiled_catalog_translates_ui_strings(language, expected):
    with translation.override(language):
        assert translation.gettext("Phases") == expected
