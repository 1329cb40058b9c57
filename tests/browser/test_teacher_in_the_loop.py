"""The teacher in the loop in a real browser, in both languages: a learner's free answer
the grader is unsure of shows as provisional; the instructor opens the cohort's
"To check", confirms it (htmx swaps the row), and the learner's note is gone."""

import importlib

import pytest
from django.apps import apps
from django.contrib.auth.models import Group
from playwright.sync_api import expect

from progress.models import Regrade
from teaching.models import Cohort
from tests.factories import PASSWORD, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BEA = "a huge gradient takes over the norm"

WORDS = {
    "en": {
        "answer": "Your answer",
        "check": "Check answer",
        "right": "Right",
        "note": "Provisional: your instructor may revise this.",
        "to_check": "To check",
        "doubt": "right only through a word read as a typo",
        "confirm": "Confirm: right",
        "done": "Verdict on ana's answer at q-10-03 confirmed: right.",
        "one": "1 verdict to check",
        "none": "0 verdicts to check",
    },
    "es": {
        "answer": "Tu respuesta",
        "check": "Comprobar respuesta",
        "right": "Correcto",
        "note": "Provisional: tu instructor puede revisarlo.",
        "to_check": "Por revisar",
        "doubt": "correcta solo gracias a una palabra leída como errata",
        "confirm": "Confirmar: correcta",
        "done": "Veredicto de la respuesta de ana a q-10-03 confirmado: correcta.",
        "one": "1 veredicto por revisar",
        "none": "0 veredictos por revisar",
    },
}


def log_in(page, url, username):
    """Before logging in the page speaks the browser's language (English); after, the
    account's."""
    page.goto(url)
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()


def cohort_taught(profile=None) -> Cohort:
    """A cohort, "Spring", taught by "teach" (staff, in the Instructors group, which the
    migration makes and a transactional test must make again), reading `profile`."""
    importlib.import_module("teaching.migrations.0002_instructors_group").create_group(apps, None)
    cohort = Cohort.objects.create(name="Spring")
    teacher = UserFactory(username="teach", is_staff=True, profile=profile)
    teacher.groups.add(Group.objects.get(name="Instructors"))
    cohort.instructors.add(teacher)
    return cohort


@pytest.mark.parametrize("language", ["en", "es"])
def test_learner_sees_provisional_until_the_instructor_confirms(
    browser, page, site, axe_check, language
):
    words = WORDS[language]
    cohort = cohort_taught(language)
    cohort.learners.add(UserFactory(username="ana", profile=language))

    # The learner answers with a typo the grader forgives, so it is unsure.
    log_in(page, site + "/login/", "ana")
    page.goto(site + "/phase/10/")
    free = page.locator("#q-10-03")
    free.get_by_label(words["answer"]).fill("The residual keeps an identty path.")
    free.get_by_role("button", name=words["check"]).click()
    free.get_by_role("heading", name=words["right"]).wait_for()
    assert free.get_by_text(words["note"]).is_visible()

    # The instructor, in a browser of their own, confirms it from the cohort's page.
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    admin = context.new_page()
    log_in(admin, site + "/admin/login/", "teach")
    admin.goto(f"{site}/admin/teaching/cohort/{cohort.pk}/change/")
    admin.get_by_role("link", name=words["to_check"], exact=True).click()
    row = admin.get_by_role("row").filter(has_text="q-10-03")
    assert row.get_by_text(words["doubt"]).is_visible()
    assert row.locator("mark").inner_text() == "identty"
    axe_check(admin, f"to check {language}")
    assert admin.locator("#to-check-count").inner_text() == words["one"]
    row.get_by_role("button", name=words["confirm"]).focus()
    admin.keyboard.press("Enter")
    done = admin.get_by_role("status").filter(has_text=words["done"])
    # The keyboard goes on from the checked row, not from the top of the page.
    expect(done).to_be_focused()
    assert admin.locator("#to-check-count").inner_text() == words["none"]
    context.close()

    assert list(Regrade.objects.values_list("kind", "by__username")) == [("confirm", "teach")]
    page.reload()
    free.get_by_role("heading", name=words["right"]).wait_for()
    assert free.get_by_text(words["note"]).count() == 0


def test_confirming_what_another_instructor_just_confirmed_says_so(page, site):
    from teaching.services import verdict_confirm
    from tests.factories import answer

    cohort = cohort_taught()
    ana = UserFactory(username="ana")
    cohort.learners.add(ana)
    attempt = answer(ana, "q-10-03", text="it is not the identity")

    log_in(page, site + "/admin/login/", "teach")
    page.goto(f"{site}/admin/teaching/cohort/{cohort.pk}/to-check/")
    verdict_confirm(attempt=attempt, by=UserFactory(username="colleague", is_staff=True))
    page.get_by_role("button", name="Confirm: wrong").click()

    page.get_by_role("status").filter(
        has_text="colleague has already checked this verdict."
    ).wait_for()
    assert Regrade.objects.count() == 1


@pytest.mark.parametrize("language", ["en", "es"])
def test_override_to_right_leads_to_the_key_change(page, site, axe_check, language):
    from tests.factories import answer

    words = {
        "en": ("Override: right…", "Reason", "Record verdict", "See the key change it suggests"),
        "es": (
            "Cambiar: correcta…",
            "Motivo",
            "Registrar veredicto",
            "Ver el cambio de clave que sugiere",
        ),
    }[language]
    cohort = cohort_taught(language)
    for name, text in {"ana": "the embedding row takes over the norm", "bea": BEA}.items():
        learner = UserFactory(username=name)
        cohort.learners.add(learner)
        answer(learner, "q-19-05", text=text)

    log_in(page, site + "/admin/login/", "teach")
    page.goto(f"{site}/admin/teaching/cohort/{cohort.pk}/to-check/")
    row = page.get_by_role("row").filter(has_text="the embedding row takes over")
    row.get_by_text(words[0]).click()
    row.get_by_label(words[1]).fill("takes over means dominates")
    row.get_by_role("button", name=words[2]).click()
    page.get_by_role("link", name=words[3]).click()

    yaml_line = page.locator("code.yaml-line")
    assert yaml_line.nth(2).inner_text().startswith("- [dominates, domina, most of the norm, ")
    assert yaml_line.nth(2).inner_text().endswith(", toda la norma, takes over]")
    assert yaml_line.nth(2).locator("ins").inner_text() == "takes over"
    rows = page.get_by_role("row").filter(has_text="3: dominates / domina /")
    counts = rows.first.get_by_role("cell")
    assert counts.nth(3).inner_text() == "2"  # ana's and bea's answers turn right
    axe_check(page, f"key change {language}")


@pytest.mark.parametrize(("scheme", "theme"), [("dark", None), ("light", "dark")])
def test_to_check_marks_read_on_the_admins_dark_theme(browser, site, axe_check, scheme, theme):
    """The admin follows the system's dark scheme (or its toggle): a found mention's
    green, made for a white page, was 3.65:1 on its near-black one."""
    from tests.factories import answer

    cohort = cohort_taught()
    ana = UserFactory(username="ana")
    cohort.learners.add(ana)
    answer(ana, "q-10-03", text="The residual keeps an identty path.")
    context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme=scheme)
    if theme:  # chosen with the admin's toggle, whatever the system says
        context.add_init_script(f"localStorage.setItem('theme', '{theme}')")
    page = context.new_page()
    page.set_default_timeout(10_000)

    log_in(page, site + "/admin/login/", "teach")
    page.goto(f"{site}/admin/teaching/cohort/{cohort.pk}/to-check/")

    axe_check(page, f"to check, dark theme ({scheme} system, theme {theme})")
    found = page.locator("table.to-check li.found").first
    assert found.evaluate("li => getComputedStyle(li).color") == "rgb(129, 199, 132)"
    context.close()
