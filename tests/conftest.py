"""Fixtures shared by every test folder."""

import shutil
from pathlib import Path

import pytest
from django.utils import translation

DATA_DIR = Path(__file__).resolve().parent.parent / "data" / "quizzes"


@pytest.fixture(autouse=True)
def _no_language_left_active():
    """A request in Spanish leaves Spanish active in the thread (Django activates a
    request's language and leaves it): the next test would run its commands in it."""
    yield
    translation.deactivate()


@pytest.fixture
def seed_dir(tmp_path: Path) -> Path:
    """A writable copy of the real quiz files."""
    target = tmp_path / "quizzes"
    shutil.copytree(DATA_DIR, target)
    return target


@pytest.fixture
def seeds_imported(db, seed_dir):
    """The real seed quizzes, imported."""
    from io import StringIO

    from django.core.management import call_command

    call_command("import_quizzes", str(seed_dir), stdout=StringIO())
    return seed_dir


@pytest.fixture
def learner(db):
    from tests.factories import UserFactory

    return UserFactory(username="ana")


@pytest.fixture
def learner_client(client, learner):
    client.force_login(learner)
    return client


def phase_yaml(count: int, number: int = 1) -> str:
    """A phase file with `count` questions cycling through the three kinds."""
    lines = [
        "format: 1",
        f"phase: {number}",
        "slug: generated",
        "title: {en: Generated, es: Generada}",
        "questions:",
    ]
    for n in range(count):
        code = f"q-{number:02d}-{n:02d}"
        kind = ("single", "multi", "free")[n % 3]
        lines += [
            f"  - id: {code}",
            f"    kind: {kind}",
            f"    title: {{en: Title {n}, es: Título {n}}}",
            "    prompt: {en: Prompt <b>bold</b> and `code`}",
            f"    explanation: {{en: Secret explanation {n}, es: Explicación secreta {n}}}",
        ]
        if kind == "free":
            lines += ["    expected:", "      - [zebraword, cebrapalabra]"]
        else:
            lines += [
                "    options:",
                "      - {key: A, text: {en: Alpha, es: Alfa}, correct: true}",
                "      - {key: B, text: {en: Beta}}",
            ]
    return "\n".join(lines) + "\n"


@pytest.fixture
def make_phase(db, tmp_path):
    """Import a generated phase with `count` questions; returns its question codes."""
    from io import StringIO

    from django.core.management import call_command

    folder = tmp_path / "generated"
    folder.mkdir()

    def make(count: int, number: int = 1) -> list[str]:
        (folder / f"phase-{number:02d}-generated.yaml").write_text(
            phase_yaml(count, number), "utf-8"
        )
        call_command("import_quizzes", str(folder), stdout=StringIO())
        return [f"q-{number:02d}-{n:02d}" for n in range(count)]

    return make


@pytest.fixture
def make_phases(db, tmp_path):
    """Import phases 1 … `count` of `questions` generated questions each, in one import
    (quicker than `make_phase` per phase); returns each phase's question codes."""
    from io import StringIO

    from django.core.management import call_command

    def make(count: int, questions: int = 1) -> list[list[str]]:
        folder = tmp_path / "many"
        folder.mkdir()
        for number in range(1, count + 1):
            (folder / f"phase-{number:02d}-generated.yaml").write_text(
                phase_yaml(questions, number), "utf-8"
            )
        call_command("import_quizzes", str(folder), stdout=StringIO())
        return [[f"q-{n:02d}-{i:02d}" for i in range(questions)] for n in range(1, count + 1)]

    return make
