"""The cohort's Memory page in a real browser: at 1280 px and 360 px in both languages,
nothing clipped, axe clean, the heat map's figures shown on a focused row."""

import re

import pytest

from tests.browser.test_instructor_admin import CLIPPED, log_in, teacher
from tests.factories import UserFactory, answer

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HEADINGS = {
    "en": ("Questions to revisit", "Heat map, phase 10", "The heat map as a table"),
    "es": (
        "Preguntas para repasar en clase",
        "Mapa de calor, fase 10",
        "El mapa de calor como tabla",
    ),
}

# The heat map's texts (names, rotated codes, figures) inside the picture.
HEAT_CLIPPED = """() => {
  const svg = document.querySelector("svg.heat");
  const box = svg.getBoundingClientRect();
  const problems = [];
  for (const text of svg.querySelectorAll("text")) {
    const b = text.getBoundingClientRect();
    if (b.width === 0) continue;  // a figure hidden until its row is focused
    if (b.left < box.left - 0.5 || b.top < box.top - 0.5 || b.right > box.right + 0.5
        || b.bottom > box.bottom + 0.5) {
      problems.push(`"${text.textContent}" ${b.left},${b.top}-${b.right},${b.bottom}`);
    }
  }
  return problems;
}"""


def fill(cohort, learners=12):
    for n in range(learners):
        learner = UserFactory(username=f"learner-with-a-long-name-{n:02d}")
        cohort.learners.add(learner)
        answer(learner, "q-10-01", keys=["B"] if n % 3 else ["A"])
        answer(learner, "q-10-02", keys=["A", "C"] if n % 2 else ["A"])
        answer(learner, "q-10-03", text="identity" if n % 2 else "skip connection")
        answer(learner, "q-19-01", keys=["B"])


@pytest.mark.parametrize("width", [1280, 360])
@pytest.mark.parametrize("language", ["en", "es"])
def test_memory_page_readable_and_accessible(page, site, cohort, axe_check, language, width):
    instructor = teacher(cohort, language)
    fill(cohort)
    page.set_viewport_size({"width": width, "height": 900})

    log_in(page, site, instructor.username)
    page.goto(f"{site}/admin/teaching/cohort/{cohort.pk}/")
    page.get_by_role("link", name={"en": "Memory", "es": "Memoria"}[language]).click()
    for heading in HEADINGS[language][:2]:
        page.get_by_role("heading", name=heading).wait_for()

    assert page.locator("html").get_attribute("lang") == language
    # Measured once the page has loaded (styles, scripts, fonts): a CI run measured it
    # while it was still being laid out and found it one time wider than the window.
    page.wait_for_load_state("load")
    page.evaluate("() => document.fonts.ready.then(() => true)")
    if width == 1280:  # nothing scrolls sideways, tables included
        problems = page.evaluate(CLIPPED)
    else:  # the page itself does not; wide tables and the heat map scroll in their box
        problems = page.evaluate(
            "() => document.documentElement.scrollWidth > document.documentElement.clientWidth"
            " ? ['page wider than the window'] : []"
        )
    assert problems == [], "; ".join(problems)
    assert page.evaluate(HEAT_CLIPPED) == []
    axe_check(page, f"memory {language} at {width} px")

    row = page.locator("svg.heat a").first
    figure = row.locator("text.v").first
    assert not figure.is_visible()
    row.focus()
    assert figure.is_visible()
    page.get_by_text(HEADINGS[language][2]).click()
    assert page.get_by_role("table").filter(has_text="learner-with-a-long-name-00").count() >= 1
    axe_check(page, f"memory {language} at {width} px, table open")


@pytest.mark.parametrize("scheme", ["dark", "light"])
def test_not_seen_mark_shows_on_the_admins_dark_theme(page, site, cohort, scheme):
    """A cell nobody answered is a pale grey with a dash on it, which tells it from the
    pale 70–80 % band. The dash took the theme's text colour: near-white on the dark
    theme, on the pale grey, so it vanished and left the two cells told apart by a
    shade of colour alone."""
    instructor = teacher(cohort)
    fill(cohort, learners=2)
    page.emulate_media(color_scheme=scheme)
    log_in(page, site, instructor.username)
    page.goto(f"{site}/admin/teaching/cohort/{cohort.pk}/memory/?phase=10")

    dash = page.locator("svg.heat text", has_text="–").first
    ink = dash.evaluate("t => getComputedStyle(t).fill")
    cell = dash.evaluate("t => getComputedStyle(t.previousElementSibling).fill")

    assert contrast(ink, cell) >= 3, (ink, cell)


def contrast(one: str, other: str) -> float:
    """WCAG's contrast ratio of two rgb(...) colours."""

    def luminance(colour: str) -> float:
        channels = [int(c) / 255 for c in re.findall(r"\d+", colour)[:3]]
        linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    high, low = sorted((luminance(one), luminance(other)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.fixture
def cohort(db):
    from teaching.models import Cohort

    return Cohort.objects.create(name="Spring")
