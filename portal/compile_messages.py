"""Compile locale/*/LC_MESSAGES/*.po to .mo without GNU gettext.

`make run` and `make test` must work on a machine with only Python and make, where
Django's compilemessages (which calls msgfmt) is not available; polib does the same job.
"""

import sys
from pathlib import Path

import polib

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"


def compile_all(locale_dir: Path = LOCALE_DIR) -> int:
    count = 0
    for po_path in sorted(locale_dir.glob("*/LC_MESSAGES/*.po")):
        mo_path = po_path.with_suffix(".mo")
        if mo_path.exists() and mo_path.stat().st_mtime >= po_path.stat().st_mtime:
            continue
        catalog = polib.pofile(str(po_path))
        broken = [entry.msgid for entry in catalog if entry.fuzzy]
        if broken:
            sys.exit(f"{po_path}: fuzzy entries must be reviewed first: {broken[:3]}")
        catalog.save_as_mofile(str(mo_path))
        count += 1
    return count


if __name__ == "__main__":
    compiled = compile_all()
    print(f"compiled {compiled} message catalog(s)")
