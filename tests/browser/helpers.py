"""What browser tests do the same way: make an account through an invite link."""

import re

from accounts.services import invite_create

PASSWORD = "a-long-Pass-phrase-42"


def create_account(page, site, username="lina"):
    _invite, url = invite_create(note="browser")
    page.goto(site + re.sub(r"^https?://[^/]+", "", url))
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Create account").click()
    page.get_by_role("heading", name="Phases").wait_for()
