"""Every page as rendered, in both languages: numbers the browser reads (SVG geometry,
CSS, data attributes, form values) are never localized (a Spanish "543,0" in an SVG
attribute makes Chromium drop the shape), and no template comment leaks into the page."""

import re
from html.parser import HTMLParser

import pytest
from django.contrib.auth.models import Group

from quizzes.models import Question
from teaching.models import Cohort
from tests.factories import UserFactory, answer

pytestmark = pytest.mark.django_db

# Attributes holding one number or a list of them split by spaces (a path's "d" and
# "points" may use commas as separators, so they are left out).
MACHINE = {
    "x", "y", "x1", "x2", "y1", "y2", "cx", "cy", "r", "width", "height", "viewbox",
    "value", "max", "min", "step", "style",
}  # fmt: skip
LOCALIZED = re.compile(r"\d,\d")  # "543,0"


class _Numbers(HTMLParser):
    def __init__(self):
        super().__init__()
        self.bad = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            machine = name in MACHINE or name.startswith("data-") and "url" not in name
            if machine and value and LOCALIZED.search(value) and not value.startswith("/"):
                self.bad.append(f"<{tag} {name}={value!r}>")


def localized_numbers(html: str) -> list[str]:
    parser = _Numbers()
    parser.feed(html)
    return parser.bad


@pytest.fixture
def rendered(client, seeds_imported, learner) -> dict[tuple[str, str], str]:
    """Every learner and instructor page, in both languages, with answers to show:
    {(language, url): html}."""
    cohort = Cohort.objects.create(name="Spring")
    cohort.learners.add(learner)
    teacher = UserFactory(username="teach", is_staff=True)
    teacher.groups.add(Group.objects.get(name="Instructors"))
    cohort.instructors.add(teacher)
    for keys in (["A"], ["B"], ["A"]):
        answer(learner, "q-10-01", keys=keys)
    answer(learner, "q-10-02", keys=["A"])
    answer(learner, "q-10-03", text="identity")
    answer(learner, "q-19-02", text="3 sigma")
    free = Question.objects.get(code="q-10-03")
    base = f"/admin/teaching/cohort/{cohort.pk}/results/"
    pages = {
        learner: ["/", "/phase/10/", "/phase/19/", "/progress/", "/reviews/", "/password/"],
        teacher: [
            base,
            f"{base}?mode=first",
            f"{base}learner/{learner.pk}/",
            f"{base}answers/{free.pk}/",
            "/admin/",
        ],
    }
    found = {}
    for language in ("en", "es"):
        for user, urls in pages.items():
            client.force_login(user)
            client.post("/language/", {"language": language, "next": "/"})
            for url in urls:
                response = client.get(url)
                assert response.status_code == 200, url
                found[(language, url)] = response.content.decode()
    return found


def test_no_page_in_spanish_localizes_a_number_the_browser_reads(rendered):
    found = {key: localized_numbers(html) for key, html in rendered.items()}

    chart = rendered[("es", "/progress/")]
    assert found == dict.fromkeys(found, [])
    assert 'lang="es"' in chart
    assert re.search(r'<rect class="bar-total" x="\d+(\.\d)?" ', chart)


def test_no_page_shows_a_template_comment(rendered):
    shown = {key for key, html in rendered.items() if "{#" in html or "#}" in html}

    assert shown == set()


def test_the_check_catches_a_localized_svg_number():
    assert localized_numbers('<svg><rect x="543,0" data-count="1,5" y="2.5"></svg>') == [
        "<rect x='543,0'>",
        "<rect data-count='1,5'>",
    ]
