"""Reading the portal's HTML in tests: one question's card, one form's token."""

import re


def article(html: str, code: str) -> str:
    match = re.search(rf'<article class="question" id="{re.escape(code)}".*?</article>', html, re.S)
    assert match, f"no article for {code}"
    return match.group(0)


def form_token(html: str, code: str) -> str | None:
    """The submission token of question `code`'s form in a rendered page, if shown."""
    match = re.search(
        rf'action="/question/{re.escape(code)}/answer/".*?name="token" value="([^"]+)"',
        html,
        re.S,
    )
    return match.group(1) if match else None
