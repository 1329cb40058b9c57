"""A learner's whole journey in a real browser, in both languages, with axe checks."""

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from progress.models import Attempt

from .helpers import PASSWORD, create_account

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_learner_journey_invite_answer_switch_language_relogin(page, site, axe_check):
    create_account(page, site)
    axe_check(page, "home en")

    page.get_by_role("link", name=re.compile(r"Phase 10: Initialization")).click()
    axe_check(page, "phase en, unanswered")
    page.evaluate("window.__notReloaded = true")

    single = page.locator("#q-10-01")
    single.get_by_label(re.compile("fp32's 8-bit exponent")).check()
    single.get_by_role("button", name="Check answer").click()
    single.get_by_role("heading", name="Right").wait_for()
    assert single.get_by_text("your pick, right").is_visible()

    multi = page.locator("#q-10-02")
    multi.get_by_label("The mean subtraction").check()
    multi.get_by_label("The learnable gain γ").check()
    multi.get_by_role("button", name="Check answer").click()
    multi.get_by_role("heading", name="Not quite").wait_for()
    assert multi.get_by_text("Partial score: 0%").is_visible()
    assert multi.get_by_text("right, not picked").is_visible()

    free = page.locator("#q-10-03")
    free.get_by_label("Your answer").fill("Pre-LN keeps an identity path with unit gain.")
    free.get_by_role("button", name="Check answer").click()
    free.get_by_role("heading", name="Right").wait_for()
    assert free.get_by_text("identity / unit gain / gain of one / …").is_visible()

    assert page.evaluate("window.__notReloaded") is True
    assert Attempt.objects.count() == 3
    axe_check(page, "phase en, answered")

    page.get_by_role("button", name="Español").click()
    page.get_by_role("heading", name=re.compile("Fase 10: Inicialización")).wait_for()
    assert page.locator("html").get_attribute("lang") == "es"
    assert page.locator("#q-10-01").get_by_role("heading", name="Correcto").is_visible()
    assert page.locator("#q-10-04").get_by_role("button", name="Comprobar respuesta").is_visible()
    assert page.get_by_text("Una entrada que es toda ceros").is_visible()
    axe_check(page, "phase es")

    # The login page after logging out keeps the learner's language (the cookie).
    page.get_by_role("button", name="Cerrar sesión").click()
    page.get_by_label("Nombre de usuario").fill("lina")
    page.get_by_label("Contraseña").fill(PASSWORD)
    page.get_by_role("button", name="Iniciar sesión").click()
    page.get_by_role("heading", name="Fases").wait_for()
    assert page.get_by_text("3 de 5 respondidas").is_visible()
    axe_check(page, "home es")

    page.get_by_role("link", name="Mi progreso").click()
    row = page.get_by_role("row", name=re.compile("10 · Inicialización"))
    assert re.search(r"3 / 5", row.inner_text())
    assert page.get_by_role("table", name=re.compile("Tus últimos 3 intentos")).is_visible()
    axe_check(page, "progress es")


def test_keyboard_only_answer_moves_focus_to_feedback_and_next(page, site):
    create_account(page, site, "kim")
    page.goto(site + reverse("progress:phase", args=[10]) + "#q-10-04")
    page.locator("#q-10-04").focus()

    page.keyboard.press("Tab")  # to the first option of q-10-04
    page.keyboard.press("ArrowDown")  # option B
    page.keyboard.press("Tab")  # to "Check answer"
    page.keyboard.press("Enter")

    page.locator("#q-10-04").get_by_role("heading", name="Right").wait_for()
    # Locator assertions, not wait_for_function: a predicate string is evaluated, which
    # the page's Content Security Policy (no 'unsafe-eval') refuses.
    expect(page.locator("#q-10-04-result")).to_be_focused()
    page.keyboard.press("Tab")  # "Answer again"
    page.keyboard.press("Tab")  # "Next question"
    page.keyboard.press("Enter")
    expect(page.locator("#q-10-05")).to_be_focused()
    assert Attempt.objects.get().answer == {"keys": ["B"]}


def test_double_click_stores_one_attempt(page, site):
    create_account(page, site, "dee")
    page.goto(site + reverse("progress:phase", args=[19]))
    card = page.locator("#q-19-01")
    card.get_by_label(re.compile("exceeded 65504")).check()

    card.get_by_role("button", name="Check answer").dblclick()

    card.get_by_role("heading", name="Right").wait_for()
    assert Attempt.objects.count() == 1


def test_answer_without_choice_shows_the_message_in_place(page, site):
    create_account(page, site, "eve")
    page.goto(site + reverse("progress:phase", args=[10]))
    card = page.locator("#q-10-02")

    card.get_by_role("button", name="Check answer").click()

    assert card.get_by_role("alert").inner_text() == "Choose at least one option."
    assert Attempt.objects.count() == 0


def test_phone_width_has_no_horizontal_scroll(page, site, axe_check):
    create_account(page, site, "pho")
    page.set_viewport_size({"width": 375, "height": 740})

    for path in ("/", "/phase/19/", "/progress/"):
        page.goto(site + path)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 375, (path, width)
    axe_check(page, "progress on a phone")


def test_login_page_is_accessible(page, site, axe_check):
    page.goto(site + "/login/")

    axe_check(page, "login")


def test_wrong_answer_comes_back_in_todays_reviews_the_next_day(page, site):
    import time_machine
    from django.utils import timezone

    create_account(page, site, "rev")
    page.goto(site + reverse("progress:phase", args=[10]))
    card = page.locator("#q-10-01")
    card.get_by_label(re.compile("longer mantissa")).check()
    card.get_by_role("button", name="Check answer").click()
    card.get_by_role("heading", name="Not quite").wait_for()

    page.get_by_role("link", name="Reviews").click()
    assert page.get_by_text("Nothing is due today.").is_visible()

    with time_machine.travel(timezone.now() + timedelta(days=1, minutes=1)):
        page.goto(site + "/")
        page.get_by_role("link", name=re.compile("Reviews.*1 due")).click()
        card = page.locator("#q-10-01")
        card.get_by_label(re.compile("8-bit exponent")).check()
        card.get_by_role("button", name="Check answer").click()
        card.get_by_role("heading", name="Right").wait_for()
        assert card.get_by_text(re.compile(r"Next review in \d+ days\.")).is_visible()
        # The header's count follows the answer without a reload.
        assert page.get_by_role("link", name="Reviews", exact=True).is_visible()
        page.evaluate("window.__notReloaded = true")
        card.get_by_role("link", name="Next review").click()
        page.get_by_role("heading", name="Done for today").wait_for()
        assert page.get_by_text("You reviewed 1 question today, 1 right.").is_visible()
        assert page.evaluate("window.__notReloaded === true")  # swapped in by htmx


def test_instructor_admin_pages_work_under_the_csp(page, site, axe_check):
    import importlib

    from django.apps import apps
    from django.contrib.auth.models import Group

    from teaching.models import Cohort
    from tests.factories import PASSWORD as FACTORY_PASSWORD
    from tests.factories import UserFactory, answer

    # A live-server test may run after a flush that emptied what migrations made: make
    # the group again with the migration's own code.
    importlib.import_module("teaching.migrations.0002_instructors_group").create_group(apps, None)
    teacher = UserFactory(username="teach", is_staff=True)
    teacher.groups.add(Group.objects.get(name="Instructors"))
    cohort = Cohort.objects.create(name="Spring")
    cohort.instructors.add(teacher)
    ana = UserFactory(username="ana")
    cohort.learners.add(ana)
    answer(ana, "q-10-01", keys=["B"])  # with no answer the page has no item analysis

    page.goto(site + "/admin/login/")
    page.get_by_label("Username").fill("teach")
    page.get_by_label("Password").fill(FACTORY_PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.get_by_role("link", name="Cohorts").click()
    page.get_by_role("link", name="Results").click()
    page.get_by_role("heading", name="Item analysis").wait_for()
    page.get_by_label("Attempts").select_option("first")
    page.get_by_role("button", name="Show").click()
    page.get_by_role("heading", name="Item analysis").wait_for()
    assert "mode=first" in page.url
    page.goto(site + "/admin/accounts/invite/add/")
    page.get_by_label("Note").fill("for ana's friend")
    page.get_by_label("Cohort").select_option(label="Spring")  # an instructor's must
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.get_by_text("Invite link (shown only now")).to_be_visible()


def test_a_link_to_a_free_question_puts_the_cursor_in_its_text_box(page, site):
    create_account(page, site, "kit")

    page.goto(site + reverse("progress:phase", args=[10]) + "#q-10-03")

    expect(page.locator("#q-10-03-text")).to_be_focused()
    # Typing saves a draft: wait for it, so no request is in flight when the test's
    # database is emptied (on PostgreSQL that TRUNCATE deadlocked with it).
    with page.expect_response(lambda r: r.url.endswith("/question/q-10-03/draft/")):
        page.keyboard.type("identity path")
    assert page.locator("#q-10-03-text").input_value() == "identity path"
