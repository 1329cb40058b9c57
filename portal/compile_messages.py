"""Compile locale/*/LC_MESSAGES/*.po to .mo without GNU gettext.

`make run` and `make test` must work on a machine with only Python and make, where
Django's compilemessages (which calls msgfmt) is not available; polib does the same job.
The portal app also calls it when Django starts (`PortalConfig.ready`), the one step
every way of starting the portal goes through (manage.py, gunicorn, a container), so
translations never depend on having run `make` first.
"""

import os
import sys
import tempfile
from pathlib import Path

import polib

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"


class FuzzyEntries(Exception):
    pass


def compile_all(locale_dir: Path = LOCALE_DIR) -> int:
    """Compile every catalog older than its .po; returns how many were compiled."""
    count = 0
    for po_path in sorted(Path(locale_dir).glob("*/LC_MESSAGES/*.po")):
        mo_path = po_path.with_suffix(".mo")
        if mo_path.exists() and mo_path.stat().st_mtime >= po_path.stat().st_mtime:
            continue
        catalog = polib.pofile(str(po_path))
        broken = [entry.msgid for entry in catalog if entry.fuzzy]
        if broken:
            raise FuzzyEntries(f"{po_path}: fuzzy entries must be reviewed first: {broken[:3]}")
        # Written aside and renamed: several server processes may start at once, and
        # none may read a half-written catalog.
        handle, temporary = tempfile.mkstemp(dir=mo_path.parent, suffix=".mo.tmp")
        os.close(handle)
        try:
            catalog.save_as_mofile(temporary)
            os.replace(temporary, mo_path)
        finally:
            if os.path.exists(temporary):
                os.unlink(temporary)
        count += 1
    return count


if __name__ == "__main__":
    try:
        compiled = compile_all()
    except FuzzyEntries as fuzzy:
        sys.exit(str(fuzzy))
    print(f"compiled {compiled} message catalog(s)")
