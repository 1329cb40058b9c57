"""Answering a numeric question: one field, read in either language's way of writing
numbers, feedback in the learner's number format, refusals that say how to write it."""

import re
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from progress.models import Attempt, Draft
from tests.html import article

pytestmark = pytest.mark.django_db

NUMERIC_DIR = Path(__file__).resolve().parents[1] / "quizzes" / "numeric"


@pytest.fixture
def numeric_imported(db):
    call_command("import_quizzes", str(NUMERIC_DIR), stdout=StringIO())


def test_a_long_number_draft_is_not_called_a_too_long_free_answer(
    numeric_imported, learner_client, learner
):
    from progress.models import Draft
    from quizzes.models import Question

    question = Question.objects.get(code="q-91-01")
    Draft.objects.create(learner=learner, question=question, answer={"text": "1" * 10_050})

    html = learner_client.get("/phase/91/").content.decode()

    assert "1" * 10_050 in html  # kept in the box
    assert "The answer is too long" not in html


def test_numeric_form_one_field_with_the_unit_and_how_to_write(numeric_imported, learner_client):
    html = article(learner_client.get("/phase/91/").content.decode(), "q-91-01")

    # The whole keyboard: a phone's decimal pad has no minus, "e" or space, which the
    # hint below offers (-3, 2.4e9, 2 415 919 104).
    assert 'inputmode="text"' in html
    assert 'name="text"' in html
    assert "maxlength" not in html  # a browser would cut a paste without a word
    assert '<span class="unit">GB</span>' in html
    assert "thousands grouped with spaces (2\u00a0415\u00a0919\u00a0104)" in html
    # No key shown: the text after the title, hidden inputs left out (a random token
    # or CSRF value may hold the digits "14").
    shown = re.sub(r'<input type="hidden"[^>]*>', "", html.split("</h2>", 1)[1])
    assert "14" not in shown.split("Explanation")[0]


@pytest.mark.parametrize(
    ("language", "hint"),
    [
        ("en", "thousands grouped with spaces (2\u00a0415\u00a0919\u00a0104), powers"),
        ("es", "millares agrupados con espacios (2\u00a0415\u00a0919\u00a0104), potencias"),
    ],
)
def test_numeric_hint_keeps_its_grouped_example_on_one_line(
    numeric_imported, learner_client, language, hint
):
    """On a 360 px phone the hint broke its example into "(2 415" and "919 104)", two
    numbers, in the very line that says how to write one: no-break spaces hold it
    together (the reader takes them as it takes spaces)."""
    learner_client.post("/language/", {"language": language, "next": "/"})

    html = article(learner_client.get("/phase/91/").content.decode(), "q-91-01")

    assert hint in html


@pytest.mark.parametrize(
    ("language", "text", "read", "right", "verdict"),
    [
        (
            "en",
            "13,5 GB",
            "Read as 13.5\u00a0GB.",
            "14\u00a0GB ± 8% (from 12.88\u00a0GB to 15.12\u00a0GB)",
            "Right",
        ),
        (
            "es",
            "13.5",
            "Leído como 13,5\u00a0GB.",
            "14\u00a0GB ± 8\u00a0% (de 12,88\u00a0GB a 15,12\u00a0GB)",
            "Correcto",
        ),
        ("en", "7", "Read as 7\u00a0GB.", "14\u00a0GB ± 8%", "Not quite"),
        (
            "es",
            "1,4e10 GB",
            "Leído como 14\u00a0000\u00a0000\u00a0000\u00a0GB.",
            "14\u00a0GB ± 8\u00a0%",
            "No exactamente",
        ),
    ],
)
def test_numeric_answer_read_and_graded_feedback_in_the_learners_format(
    numeric_imported, learner_client, post_answer, learner, language, text, read, right, verdict
):
    learner_client.post("/language/", {"language": language, "next": "/"})

    response = post_answer("q-91-01", text=text)

    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in html
    assert read in html
    assert right in html
    assert verdict in html
    attempt = Attempt.objects.get()
    assert attempt.answer["text"] == text
    assert attempt.pattern == attempt.answer["value"]
    assert attempt.correct is (verdict in ("Right", "Correcto"))


@pytest.mark.parametrize(
    ("language", "key"),
    [
        ("en", "14\u00a0GB ± 8% (from 12.88\u00a0GB to 15.12\u00a0GB)"),
        ("es", "14\u00a0GB ± 8\u00a0% (de 12,88\u00a0GB a 15,12\u00a0GB)"),
    ],
)
def test_numeric_key_keeps_a_number_with_its_unit_and_percent_sign(
    numeric_imported, learner_client, post_answer, language, key
):
    """On a 360 px phone the key broke as "± 8" / "% (de 11,96 GB…" and could leave a
    unit at the start of a line: no-break spaces keep each quantity whole."""
    learner_client.post("/language/", {"language": language, "next": "/"})

    html = post_answer("q-91-01", text="7").content.decode()

    assert key in html


@pytest.mark.parametrize(
    ("language", "text", "read"),
    [
        ("en", "1.4e10", "Read as 14\u00a0000\u00a0000\u00a0000\u00a0GB."),
        ("es", "2415919104,5", "Leído como 2\u00a0415\u00a0919\u00a0104,5\u00a0GB."),
        ("es", "12345", "Leído como 12\u00a0345\u00a0GB."),
        (
            "en",
            "1234.5",
            "Read as 1234.5\u00a0GB.",
        ),  # four digits stay whole, as the hint writes them
    ],
)
def test_a_big_number_is_read_back_in_groups_of_three(
    numeric_imported, learner_client, post_answer, language, text, read
):
    """ "Read as 14000000000" left the learner counting zeros to see whether 1,4e10 was
    read as they meant: the digits come back grouped as the hint asks them to write them
    (no-break spaces, in both languages: a point or comma would read as a decimal)."""
    learner_client.post("/language/", {"language": language, "next": "/"})

    html = post_answer("q-91-01", text=text).content.decode()

    assert read in html


def test_a_number_longer_than_28_digits_is_read_back_as_typed(
    numeric_imported, learner_client, post_answer
):
    """(Walk 36) Forty ones came back as "1 111 … 111 100 000 000 000": rounded to 28
    digits, then padded with zeros, which the learner had not typed."""
    typed = "1" * 40

    html = post_answer("q-91-01", text=typed).content.decode()

    read = re.search(r"Read as ([0-9\u00a0]+)\u00a0GB\.", html)
    assert read, html[html.index("Read as") :][:200] if "Read as" in html else html[:300]
    assert read.group(1).replace("\u00a0", "") == typed


def test_numeric_answer_without_tolerance_shows_the_exact_value(
    numeric_imported, learner_client, post_answer
):
    learner_client.post("/language/", {"language": "es", "next": "/"})

    html = post_answer("q-91-02", text="3e-4").content.decode()

    assert "Leído como 0,0003." in html
    assert "La respuesta correcta: 0,0003 ± 0,00001 (de 0,00029 a 0,00031)." in html
    assert Attempt.objects.get().answer == {"text": "3e-4", "value": "0.0003"}


REFUSALS = [
    ("en", "1,000", "“1,000” can be read two ways. Write a thousand as 1000 or 1\u00a0000"),
    ("es", "1.000", "«1.000» se puede leer de dos maneras. Escribe mil como 1000 o 1\u00a0000"),
    ("en", "about three", "Write a number in digits, such as 3.5; 3,5 or 2.4e9."),
    # A list of numbers with decimal commas is split by semicolons: "3.5, 3,5 or" and
    # "3,5, 3.5" read as three numbers.
    ("es", "unos tres", "Escribe un número en cifras, como 3,5; 3.5 o 2,4e9."),
    ("en", "3.5 MB", "Write the number, in GB: for example 3.5 or 3.5 GB."),
    ("en", "1,000.5", "Use at most one decimal point or comma"),
    ("en", "24 15", "Group digits in threes with spaces"),
    ("en", " ", "Write a number first."),
    ("en", "3" * 150, "A number takes at most 100 characters; this answer has 150."),
    ("es", "3" * 150, "Un número ocupa como mucho 100 caracteres; esta respuesta tiene 150."),
    ("en", "1e400", "“1e400” is out of the range of this course&#x27;s quantities: write a"),
    ("es", "1e-400", "«1e-400» está fuera del rango de las cantidades de este curso"),
    # A power of ten written out: "3·10⁻⁴" was told to drop its unit, "1.4×10^10" that
    # only GB may follow the number.
    ("en", "3·10⁻⁴", "Write a power of ten with e: 3e-4 instead of “3·10⁻⁴”."),
    ("es", "1,4×10^10", "Escribe la potencia de diez con e: 1,4e10 en lugar de «1,4×10^10»."),
]


@pytest.mark.parametrize(("language", "text", "message"), REFUSALS)
def test_numeric_answer_unreadable_refused_with_how_to_write_it_text_kept(
    numeric_imported, learner_client, post_answer, language, text, message
):
    learner_client.post("/language/", {"language": language, "next": "/"})

    response = post_answer("q-91-01", text=text)

    html = response.content.decode()
    assert response.status_code == 422
    assert message in html
    assert 'role="alert"' in html
    assert f'value="{text}"' in html.replace("&#x27;", "'")
    assert Attempt.objects.count() == 0


NB = "\u00a0"  # a no-break space


@pytest.mark.parametrize(
    ("language", "text", "example"),
    [
        ("en", "1,000", f"as 1000 or 1{NB}000, and"),
        ("es", "1.000", f"como 1000 o 1{NB}000, y"),
        ("en", "1,000.5", f"with spaces: 2{NB}415{NB}919{NB}104.5."),
        ("es", "1.000,5", f"con espacios: 2{NB}415{NB}919{NB}104,5."),
        ("en", "24 15", f"as in 2{NB}415{NB}919{NB}104, or"),
        ("es", "24 15", f"como en 2{NB}415{NB}919{NB}104, o"),
    ],
)
def test_numeric_refusal_keeps_its_grouped_example_on_one_line(
    numeric_imported, learner_client, post_answer, language, text, example
):
    """On a 360 px phone a refusal broke its example ("2 415" at a line's end, "919
    104,5" on the next), two numbers where it shows how to write one."""
    learner_client.post("/language/", {"language": language, "next": "/"})

    html = post_answer("q-91-01", text=text).content.decode()

    assert example in html


def test_numeric_answer_refused_without_htmx_shows_the_form_again(
    numeric_imported, learner_client, post_answer, learner
):
    response = post_answer("q-91-01", text="1,000", htmx=False)

    assert response.status_code == 302
    page = learner_client.get(response["Location"]).content.decode()
    card = article(page, "q-91-01")
    assert "“1,000” can be read two ways." in card
    assert 'value="1,000"' in card
    assert Attempt.objects.count() == 0
    assert Draft.objects.get(learner=learner).answer["text"] == "1,000"
