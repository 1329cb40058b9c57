"""Markdown mirrors: generated from the YAML, deterministic, and checked in CI."""

import shutil
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def project(tmp_path, settings):
    """A project folder holding a copy of the seed YAML at data/quizzes, as the
    repository does, so the mirrors name the same source path as the committed ones."""
    shutil.copytree(REPO / "data" / "quizzes", tmp_path / "data" / "quizzes")
    settings.BASE_DIR = tmp_path
    return tmp_path


def export(*args) -> str:
    out = StringIO()
    call_command("export_mirrors", *map(str, args), stdout=out, stderr=StringIO())
    return out.getvalue()


def test_export_mirrors_writes_both_languages_per_phase(seed_dir, tmp_path):
    out = tmp_path / "mirrors"

    export("--source", seed_dir, "--out", out)

    assert sorted(p.name for p in out.iterdir()) == [
        "phase-10-init-norm-residuals.es.md",
        "phase-10-init-norm-residuals.md",
        "phase-19-training-dynamics.es.md",
        "phase-19-training-dynamics.md",
    ]


def test_export_mirrors_spanish_page_falls_back_to_english_like_the_seed(seed_dir, tmp_path):
    out = tmp_path / "mirrors"

    export("--source", seed_dir, "--out", out)

    text = (out / "phase-19-training-dynamics.es.md").read_text()
    assert "# Fase 19 — Dinámica de entrenamiento y depuración (espejo)" in text
    assert "## q-19-01 — Firma de overflow fp16 (única)" in text
    assert "Prompt (EN): A run in fp16 with no loss scaling shows:" in text
    assert "- B. (EN) Activation magnitude exceeded 65504 in the backward pass. ✓" in text
    assert "Por traducir: 17 de 28 textos siguen en inglés, marcados (EN): 5 enunciados, " in text
    assert "**Correcta: B.** El máximo fp16 es 65504;" in text
    assert "**Correcta: A, B, C.**" in text
    assert "Respuesta libre. Menciones esperadas (basta con 1 de 1): 3σ (o “3 sigma”" in text
    assert "Incorrecta si dice: 2σ (o “2 sigma”, “two standard deviations”);" in text


def test_export_mirrors_english_page(project):
    out = project / "mirrors"

    export("--source", project / "data" / "quizzes", "--out", out)

    text = (out / "phase-10-init-norm-residuals.md").read_text()
    assert "`data/quizzes/phase-10-init-norm-residuals.yaml`" in text
    assert "## q-10-02 — RMSNorm vs LayerNorm — what is removed? (multi)" in text
    assert "- A. The mean subtraction ✓" in text
    assert "- D. The learnable gain γ\n" in text
    assert (
        "Free response. Expected mentions (1 of 1 needed): identity (or “identidad”, "
        "“unit gain”, “ganancia unitaria”, “ganancia uno”," in text
    )
    assert "Wrong if it says: initialized to the identity (or “identity initialization”" in text


def test_export_mirrors_is_deterministic(seed_dir, tmp_path):
    export("--source", seed_dir, "--out", tmp_path / "one")
    export("--source", seed_dir, "--out", tmp_path / "two")

    for path in (tmp_path / "one").iterdir():
        assert path.read_bytes() == (tmp_path / "two" / path.name).read_bytes()


def test_export_mirrors_check_passes_on_committed_mirrors():
    output = export("--check")

    assert output.strip() == "4 mirrors up to date."


def test_export_mirrors_check_catches_stale_mirror_and_writes_nothing(project):
    seed_dir = project / "data" / "quizzes"
    out = project / "mirrors"
    shutil.copytree(REPO / "docs" / "quizzes", out)
    path = seed_dir / "phase-19-training-dynamics.yaml"
    path.write_text(path.read_text().replace("Bad init.", "Poor init."), "utf-8")
    before = {p.name: p.read_bytes() for p in out.iterdir()}

    err = StringIO()
    with pytest.raises(CommandError, match="Mirrors differ from the YAML"):
        call_command(
            "export_mirrors",
            "--check",
            "--source",
            str(seed_dir),
            "--out",
            str(out),
            stdout=StringIO(),
            stderr=err,
        )

    assert err.getvalue().splitlines() == [
        f"out of date: {out / 'phase-19-training-dynamics.es.md'}",
        f"out of date: {out / 'phase-19-training-dynamics.md'}",
    ]
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before


def test_export_mirrors_refuses_invalid_yaml(seed_dir, tmp_path):
    (seed_dir / "phase-19-training-dynamics.yaml").write_text("format: 9\n", "utf-8")

    with pytest.raises(CommandError, match="no mirrors were written"):
        export("--source", seed_dir, "--out", tmp_path / "mirrors")

    assert not (tmp_path / "mirrors").exists()


RICH = REPO / "tests" / "quizzes" / "data"


def test_export_mirrors_keeps_code_fences_lists_and_paragraphs(tmp_path):
    out = tmp_path / "mirrors"

    export("--source", RICH, "--out", out)

    text = (out / "phase-90-rich-text.md").read_text()
    question = text.split("## q-90-01")[1].split("## q-90-02")[0]
    assert question == (
        " — What does `scale` return? (single)\n"
        "\n"
        "Read the function below (see the [Python tutorial](https://docs.python.org/3/tutorial/)):\n"
        "\n"
        "```python\n"
        "def scale(xs, factor=2):\n"
        "    # multiply every element\n"
        "    return [x * factor for x in xs]\n"
        "```\n"
        "\n"
        "What is `scale([1, 2])`?\n"
        "\n"
        "- A. ✓\n"
        "\n"
        "  ```python\n"
        "  [2, 4]\n"
        "  ```\n"
        "\n"
        "- B. `[1, 2, 1, 2]`\n"
        "- C.\n"
        "\n"
        "  ```\n"
        "  TypeError: can't multiply sequence by non-int\n"
        "  ```\n"
        "\n"
        "- D. It returns *nothing*.\n"
        "\n"
        "**Correct: A.**\n"
        "\n"
        "The comprehension multiplies each element, so `[1, 2]` becomes `[2, 4]`.\n"
        "\n"
        "Two things to remember:\n"
        "\n"
        "- `factor` defaults to 2;\n"
        "- a list times an int would repeat the list, but here each *element* is multiplied.\n"
        "\n"
    )


def test_export_mirrors_spanish_block_prompt_falls_back_under_its_label(tmp_path):
    out = tmp_path / "mirrors"

    export("--source", RICH, "--out", out)

    text = (out / "phase-90-rich-text.es.md").read_text()
    assert (
        "## q-90-02 — (EN) Safe texts (múltiple)\n\nPrompt (EN):\n\nRaw <b>HTML</b> stays"
    ) in text
    assert "| size | dtype |\n|:-----|------:|\n| 2 B  | fp16  |\n\n> A quoted note.\n" in text
    assert "\n    indented code block\n\n- A. (EN) Write to <mailto:team@example.org> ✓\n" in text
    assert (
        "- B. (EN)\n\n  1. first\n  2. second\n\n"
        "- C. (EN) Nothing\n\n**Correcta: A.** (EN) Only A.\n"
    ) in text
    assert "- B. `[1, 2, 1, 2]`, la lista repetida\n" in text


def test_export_mirrors_name_the_real_source_path(tmp_path):
    elsewhere = tmp_path / "elsewhere"
    shutil.copytree(RICH, elsewhere)

    export("--source", RICH, "--out", tmp_path / "inside")
    export("--source", elsewhere, "--out", tmp_path / "outside")

    inside = (tmp_path / "inside" / "phase-90-rich-text.md").read_text().splitlines()
    outside = (tmp_path / "outside" / "phase-90-rich-text.md").read_text().splitlines()
    assert inside[0] == (
        "<!-- Generated by `python manage.py export_mirrors` from "
        "tests/quizzes/data/phase-90-rich-text.yaml. -->"
    )
    assert outside[4].startswith(
        f"The canonical questions live in `{elsewhere.resolve()}/phase-90-rich-text.yaml`."
    )


def test_export_mirrors_phase_title_of_several_lines_stays_in_its_heading(tmp_path):
    """A fuzz walk: a phase title written as a block scalar ended the heading at its
    first line, and a line starting with "#" became a heading of its own."""
    source = tmp_path / "source"
    source.mkdir()
    text = (REPO / "data" / "quizzes" / "phase-19-training-dynamics.yaml").read_text()
    start = text.index("\ntitle:")
    end = text.index("\nquestions:")
    title = "\ntitle:\n  en: |\n    Training\n    # dynamics"
    (source / "phase-19-training-dynamics.yaml").write_text(
        text[:start] + title + text[end:], "utf-8"
    )

    export("--source", source, "--out", tmp_path / "mirrors")

    mirror = (tmp_path / "mirrors" / "phase-19-training-dynamics.md").read_text()
    assert mirror.splitlines()[2] == "# Phase 19 — Training # dynamics (quiz mirror)"


def test_export_mirrors_of_another_folder_keeps_the_bank_mirrors_beside_them(project):
    """A fuzz walk: `export_mirrors --source scratch/` (an author previewing a new file)
    removed the bank's committed mirrors from docs/quizzes, "its YAML is gone"."""
    bank, out = project / "data" / "quizzes", project / "docs" / "quizzes"
    export("--source", bank, "--out", out)
    scratch = project / "scratch"
    scratch.mkdir()
    text = (REPO / "tests" / "quizzes" / "data" / "phase-90-rich-text.yaml").read_text()
    (scratch / "phase-90-rich-text.yaml").write_text(text, "utf-8")

    said = export("--source", scratch, "--out", out)

    assert said == "2 of 2 mirrors written.\n"
    assert sorted(p.name for p in out.iterdir()) == [
        "phase-10-init-norm-residuals.es.md",
        "phase-10-init-norm-residuals.md",
        "phase-19-training-dynamics.es.md",
        "phase-19-training-dynamics.md",
        "phase-90-rich-text.es.md",
        "phase-90-rich-text.md",
    ]


def test_export_mirrors_removes_the_mirrors_whose_yaml_is_gone(project):
    bank, out = project / "data" / "quizzes", project / "docs" / "quizzes"
    export("--source", bank, "--out", out)
    (bank / "phase-10-init-norm-residuals.yaml").unlink()

    said = export("--source", bank, "--out", out)

    assert said == (
        f"removed {out}/phase-10-init-norm-residuals.es.md (its YAML is gone)\n"
        f"removed {out}/phase-10-init-norm-residuals.md (its YAML is gone)\n"
        "0 of 2 mirrors written.\n"
    )


HOSTILE_TEXTS = {
    "comment": "Which one?\n\n<!-- the rest",
    "comment-first": "<!-- the rest",
    "script": "<script>\nthe rest",
    "pre": "<pre>the rest",
    "fence": "Look:\n\n```\ncode never closed",
    "tildes": "~~~~python\nx = 1",
    "fence-first": "```",
}


@pytest.mark.parametrize("text", HOSTILE_TEXTS.values(), ids=HOSTILE_TEXTS)
@pytest.mark.parametrize("field", ["prompt", "explanation"])
def test_a_text_ends_where_it_ends_in_the_mirror(tmp_path, text, field):
    """In the portal each text is rendered apart and its raw HTML shown as text; the
    mirror put the texts one after the other, so a prompt opening an HTML comment or a
    code fence that it never closed swallowed the rest of the mirror, every later
    question and its correct option, on any page that renders it (red team 21)."""
    from markdown_it import MarkdownIt

    source = tmp_path / "quizzes"
    source.mkdir()
    block = "\n".join(f"        {line}" for line in text.splitlines())
    questions = "".join(
        f"""\
  - id: q-01-0{n}
    kind: single
    title: {{en: Question {n}}}
    {field}:
      en: |
{block}
    options:
      - {{key: A, text: {{en: Alpha}}, correct: true}}
      - {{key: B, text: {{en: Beta}}}}
{"" if field == "explanation" else "    explanation: {en: Because.}"}
"""
        for n in (1, 2)
    )
    (source / "phase-01-basics.yaml").write_text(
        f"format: 1\nphase: 1\nslug: basics\ntitle: {{en: Basics}}\nquestions:\n{questions}",
        encoding="utf-8",
    )
    out = tmp_path / "mirrors"

    export("--source", source, "--out", out)

    # Rendered as GitHub and editors do: CommonMark, raw HTML interpreted.
    html = MarkdownIt("commonmark", {"html": True}).render(
        (out / "phase-01-basics.md").read_text(encoding="utf-8")
    )
    assert html.count("<h2>") == 2, html
    assert html.count("<li>A. Alpha ✓</li>") == 2, html
    assert html.count("<strong>Correct: A.</strong>") == 2, html
    assert "<script>" not in html and "<pre>the" not in html and "<!--" not in html[20:], html


HALF_TRANSLATED = """\
format: 1
phase: 92
slug: half-translated
title: {en: Half translated}
questions:
  - id: q-92-01
    kind: single
    title: {en: Pick B, es: Elige B}
    prompt: {en: Which one?}
    options:
      - key: A
        text: {en: Not this, es: Esta no}
      - key: B
        text: {en: This one}
        correct: true
    explanation: {en: Because B.}
  - id: q-92-02
    kind: free
    title: {en: Say identity}
    prompt: {en: What path?, es: ¿Qué camino?}
    expected:
      - [identity, identidad]
    explanation: |
      The identity path.

      It keeps the gradient.
  - id: q-92-03
    kind: numeric
    title: {en: Weights, es: Pesos}
    answer: 14
    unit: GB
    explanation: {en: Two bytes each., es: Dos bytes cada uno.}
"""


def test_export_mirrors_spanish_page_marks_every_text_that_falls_back(tmp_path):
    """An author walk: only a prompt in English was labelled in the Spanish mirror; an
    option, a title, an explanation or a unit left in English read as if translated, so
    the mirror could not tell an author what was left to translate. Each is now marked
    (EN) just before its text, and a line under the intro counts them."""
    source = tmp_path / "source"
    source.mkdir()
    (source / "phase-92-half-translated.yaml").write_text(HALF_TRANSLATED, "utf-8")

    export("--source", source, "--out", tmp_path / "mirrors")

    spanish = (tmp_path / "mirrors" / "phase-92-half-translated.es.md").read_text("utf-8")
    body = spanish.split("se genera, así que edita el YAML.\n\n", 1)[1]
    assert body == (
        "Por traducir: 7 de 12 textos siguen en inglés, marcados (EN): 2 títulos, "
        "1 enunciado, 1 opción, 2 explicaciones, 1 unidad.\n"
        "\n"
        "## q-92-01 — Elige B (única)\n"
        "\n"
        "Prompt (EN): Which one?\n"
        "\n"
        "- A. Esta no\n"
        "- B. (EN) This one ✓\n"
        "\n"
        "**Correcta: B.** (EN) Because B.\n"
        "\n"
        "## q-92-02 — (EN) Say identity (libre)\n"
        "\n"
        "¿Qué camino?\n"
        "\n"
        "Respuesta libre. Menciones esperadas (basta con 1 de 1): identity (o “identidad”).\n"
        "\n"
        "(EN)\n"
        "\n"
        "The identity path.\n"
        "\n"
        "It keeps the gradient.\n"
        "\n"
        "## q-92-03 — Pesos (numérica)\n"
        "\n"
        "**Respuesta: 14 (EN) GB.** Dos bytes cada uno.\n"
    )
    assert spanish.splitlines()[2] == "# Fase 92 — (EN) Half translated (espejo)"
    english = (tmp_path / "mirrors" / "phase-92-half-translated.md").read_text("utf-8")
    assert "(EN)" not in english and "Por traducir" not in english


def test_export_mirrors_spanish_page_marks_block_texts_above_them(tmp_path):
    out = tmp_path / "mirrors"

    export("--source", RICH, "--out", out)

    text = (out / "phase-90-rich-text.es.md").read_text()
    assert "- A. ✓ (EN)\n\n  ```python\n  [2, 4]\n  ```\n" in text
    assert "- C. (EN)\n\n  ```\n  TypeError:" in text
    assert "## q-90-02 — (EN) Safe texts (múltiple)\n" in text


def test_export_mirrors_spanish_page_says_when_nothing_is_left_to_translate(tmp_path):
    source = tmp_path / "source"
    source.mkdir()
    text = (REPO / "data" / "quizzes" / "phase-10-init-norm-residuals.yaml").read_text()
    (source / "phase-10-init-norm-residuals.yaml").write_text(text, "utf-8")

    export("--source", source, "--out", tmp_path / "mirrors")

    spanish = (tmp_path / "mirrors" / "phase-10-init-norm-residuals.es.md").read_text()
    assert "\nPor traducir: nada; los 29 textos están en español.\n" in spanish
    assert "(EN)" not in spanish


def test_export_mirrors_show_a_questions_examples_after_it(project):
    """An author walk: the mirrors left out `examples:`, the answers an author wrote to
    test a free or numeric key, so a reader saw the key without the answers it must
    grade right and wrong. They follow the key on one line, right (✓) then wrong (✗)."""
    out = project / "mirrors"

    export("--source", project / "data" / "quizzes", "--out", out)

    english = (out / "phase-19-training-dynamics.md").read_text()
    question = english.split("## q-19-02")[1].split("## q-19-03")[0]
    assert (
        "“por debajo de la media”).\n\n"
        "Examples: ✓ “loss > rolling mean + 3 std”, “tres desviaciones típicas por encima de "
        "la media móvil”; ✗ “2 sigma above the rolling mean”, “por encima de la media móvil”."
        "\n\nFlag a step whose loss is 3σ"
    ) in question
    spanish = (out / "phase-19-training-dynamics.es.md").read_text()
    assert "\n\nEjemplos: ✓ “loss > rolling mean + 3 std”, “tres desviaciones" in spanish
    choice = english.split("## q-19-01")[1].split("## q-19-02")[0]
    assert "Examples" not in choice


def test_export_mirrors_show_numeric_examples_with_their_language(tmp_path):
    export("--source", REPO / "tests" / "quizzes" / "numeric", "--out", tmp_path)

    english = (tmp_path / "phase-91-numeric.md").read_text()
    assert "\n\nExamples: ✓ “14 GB”, “13,04” (es); ✗ “1.4e10”, “7”.\n" in english
    assert english.count("Examples:") == 1  # q-91-02 has none


def test_a_relative_tolerance_is_written_as_each_language_writes_a_percentage(tmp_path):
    """The Spanish page says "± 8 %" (the catalog's "%(number)s %%"); its mirror said
    "± 8%" (author walk 3)."""
    export("--source", REPO / "tests" / "quizzes" / "numeric", "--out", tmp_path)

    assert "± 8%" in (tmp_path / "phase-91-numeric.md").read_text()
    assert "± 8 %" in (tmp_path / "phase-91-numeric.es.md").read_text()
