"""The portal's languages are named in one place, portal/languages.py."""

import re
from pathlib import Path

from django.conf import settings

from portal.languages import LANGUAGE_CODES

ROOT = Path(__file__).resolve().parent.parent.parent
APPS = ["accounts", "audit", "portal", "progress", "quizzes", "teaching"]
# An assignment to a LANGUAGES name, or a literal tuple or list of the codes.
DEFINITION = re.compile(r"^\s*LANGUAGES\s*=|[(\[]\s*\"en\",\s*\"es\"\s*[)\]]", re.M)
ALLOWED = {"portal/languages.py", "portal/settings/base.py"}


def test_languages_settings_codes_are_the_portal_languages():
    assert [code for code, name in settings.LANGUAGES] == list(LANGUAGE_CODES) == ["en", "es"]


def test_languages_defined_nowhere_but_portal_languages():
    defining = set()
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            if DEFINITION.search(path.read_text(encoding="utf-8")):
                defining.add(path.relative_to(ROOT).as_posix())

    assert defining - ALLOWED == set()
