"""Real Chromium driven by Playwright against pytest-django's live server.

Skipped, with the reason shown by `make test`, when Debian's Chromium is not installed;
CI sets REQUIRE_BROWSER=1 so that a missing browser fails instead of skipping.
"""

import os
import shutil

import pytest

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]


def pytest_collection_modifyitems(config, items):
    if os.path.exists(CHROMIUM) or shutil.which("chromium"):
        return
    if os.environ.get("REQUIRE_BROWSER"):
        raise pytest.UsageError(f"REQUIRE_BROWSER is set but {CHROMIUM} does not exist.")
    skip = pytest.mark.skip(
        reason=f"browser tests skipped: no Chromium at {CHROMIUM} (apt-get install chromium)"
    )
    for item in items:
        if "browser" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def browser():
    # Playwright's sync API runs an event loop in this thread; the test's own ORM calls
    # (making invites, reading attempts) are still synchronous and safe here.
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    """A page that fails the test if the browser reports a Content-Security-Policy
    violation or a script error: the CSP must never have to be loosened."""
    context = browser.new_context(viewport={"width": 1100, "height": 900}, locale="en-US")
    page = context.new_page()
    page.set_default_timeout(10_000)
    problems = []
    page.on(
        "console",
        lambda message: (
            problems.append(message.text)
            if message.type == "error" and "Content Security Policy" in message.text
            else None
        ),
    )
    page.on("pageerror", lambda error: problems.append(str(error)))
    yield page
    context.close()
    assert problems == []


@pytest.fixture
def axe_check():
    """Run axe-core on the page and fail on any serious or critical violation.

    `exclude` names selectors left out, for what the admin draws itself and is
    accepted as it is (its breadcrumbs' colours)."""
    from axe_playwright_python.sync_playwright import Axe

    axe = Axe()

    def check(page, label: str, exclude: tuple[str, ...] = ()) -> None:
        context = {"exclude": [[selector] for selector in exclude]} if exclude else None
        results = axe.run(page, context=context)
        bad = [
            f"{v['id']} ({v['impact']}): {v['help']} — {[n['target'] for n in v['nodes']][:3]}"
            for v in results.response["violations"]
            if v["impact"] in ("serious", "critical")
        ]
        assert bad == [], f"{label}: {bad}"

    return check


@pytest.fixture
def site(live_server, seed_dir):
    """The live server with the seed quizzes imported; its base URL."""
    from io import StringIO

    from django.core.management import call_command

    call_command("import_quizzes", str(seed_dir), stdout=StringIO())
    return live_server.url
