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


def test_translations_are_compiled_when_django_starts_without_make(tmp_path):
    """However the portal starts (gunicorn, a container), Django's setup compiles the
    catalogs: here a fresh copy of locale/ without any .mo file."""
    import os
    import shutil
    import subprocess
    import sys

    root = PO.parents[3]
    locale = tmp_path / "locale"
    shutil.copytree(root / "locale", locale, ignore=shutil.ignore_patterns("*.mo"))
    (tmp_path / "fresh_settings.py").write_text(
        f"from portal.settings.test import *\nLOCALE_PATHS = [{str(locale)!r}]\n"
    )
    env = os.environ | {
        "DJANGO_SETTINGS_MODULE": "fresh_settings",
        "PYTHONPATH": os.pathsep.join([str(tmp_path), str(root)]),
    }

    result = subprocess.run(
        [
            sys.executable,
            "-c",
            "import django; django.setup(); from django.utils import translation; "
            "translation.activate('es'); print(translation.gettext('Phases'))",
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )

    assert result.stdout.strip() == "Fases", result.stderr
    assert (locale / "es" / "LC_MESSAGES" / "django.mo").exists()
