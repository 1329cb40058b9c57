"""Our code uses Django's public API: none of the private names it once leaned on
(issue 25) comes back. The list names what an upgrade of Django may break unannounced."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
APPS = ["portal", "progress", "quizzes", "teaching", "accounts", "audit"]
PRIVATE = [
    r"\.get_col\(",
    r"get_db_converters",
    r"adapt_unknown_value",
    r"_get_session_from_db",
    r"_start_transaction_under_autocommit",
    r"def _commit\(",
    r"def _rollback\(",
    r"def _close\(",
    r"getclosurevars",
    r"request_method_list",
    r"request\._(post|files)\b",
]
# (path, pattern) pairs allowed for a while, each with the reason beside it: none now.
EXEMPT: set[tuple[str, str]] = set()


def private_uses(root: Path) -> list[str]:
    found = []
    for app in APPS:
        for path in sorted((root / app).rglob("*.py")):
            for number, line in enumerate(path.read_text().splitlines(), 1):
                for name in PRIVATE:
                    exempt = (str(path.relative_to(root)), name) in EXEMPT
                    if re.search(name, line) and not exempt:
                        found.append(f"{path.relative_to(root)}:{number}: {line.strip()}")
    return found


def test_our_code_uses_none_of_djangos_private_names():
    assert private_uses(ROOT) == []


def test_the_check_finds_a_private_name(tmp_path):
    (tmp_path / "portal").mkdir()
    (tmp_path / "portal" / "x.py").write_text("col = field.get_col(table)\n")

    assert private_uses(tmp_path) == ["portal/x.py:1: col = field.get_col(table)"]
