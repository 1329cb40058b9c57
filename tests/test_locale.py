"""The Spanish catalog is complete and the UI really switches language."""

import ast
import re
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


# Every string the code marks for translation, found without GNU gettext: the calls of
# gettext's functions with a literal in Python, {% translate %} and {% blocktranslate %}
# in the templates (read as makemessages reads them: trimmed, variables as %(name)s).
ROOT = PO.parents[3]
APPS = ("accounts", "audit", "portal", "progress", "quizzes", "teaching")
GETTEXT = {"_", "gettext", "gettext_lazy", "gettext_noop", "ngettext", "ngettext_lazy"}
CONTEXT_GETTEXT = {"pgettext", "pgettext_lazy", "npgettext", "npgettext_lazy"}  # context first
TRANSLATE = re.compile(
    r"""\{%\s*(?:translate|trans)\s+(["'])(.+?)\1"""
    r"""(?:\s+(?:noop|as\s+\w+|context\s+(["']).+?\3))*\s*%\}"""
)
BLOCK = re.compile(
    r"\{%\s*blocktrans(?:late)?\b([^%]*)%\}(.*?)\{%\s*endblocktrans(?:late)?\s*%\}", re.S
)


def _python_msgids(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
        if name in GETTEXT or name in CONTEXT_GETTEXT:
            args = node.args[1:] if name in CONTEXT_GETTEXT else node.args
            for arg in args[: 2 if "ngettext" in name else 1]:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    found.add(arg.value)
    return found


def _block_text(text: str, trimmed: bool) -> str:
    text = re.sub(r"\{\{\s*(\w+)\s*\}\}", r"%(\1)s", text.replace("%", "%%"))
    text = text.replace("%%(", "%(")
    if trimmed:
        text = " ".join(line.strip() for line in text.strip().splitlines() if line.strip())
    return text


def _template_msgids(path: Path) -> set[str]:
    source = path.read_text("utf-8")
    # A literal's "%" is doubled, as Django does before looking it up.
    found = {m.group(2).replace("%", "%%") for m in TRANSLATE.finditer(source)}
    for options, body in BLOCK.findall(source):
        for part in re.split(r"\{%\s*plural\s*%\}", body):
            found.add(_block_text(part, "trimmed" in options))
    return found


def test_every_string_marked_for_translation_has_its_spanish():
    catalog = polib.pofile(str(PO))
    live = [e for e in catalog if not e.obsolete]  # a "#~" entry is not compiled
    known = {e.msgid for e in live} | {e.msgid_plural for e in live if e.msgid_plural}
    marked = set()
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" not in path.parts:
                marked |= _python_msgids(path)
    for path in (ROOT / "templates").rglob("*.html"):
        marked |= _template_msgids(path)
    with translation.override("es"):
        # Django's own catalogues translate the strings it shares with the admin.
        missing = sorted(m for m in marked - known if translation.gettext(m) == m)
    assert missing == [], "\n".join(missing)
