"""Reading the portal's HTML in tests: one question's card, one form's token, and the
Nu Html Checker over saved pages."""

import json
import os
import re
import shutil
import subprocess


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


def question_card(html: str, code: str) -> str:
    """Question `code`'s card (its `<article>`) in a rendered page."""
    start = html.index(f'<article class="question" id="{code}"')
    return html[start : html.index("</article>", start)]


def form_token_shown(html: str, code: str) -> str:
    """`form_token`, for a page that must show the form."""
    token = form_token(html, code)
    assert token, html
    return token


def vnu_available() -> bool:
    """Whether the Nu Html Checker can run; with REQUIRE_VNU set (CI), it must."""
    jar = os.environ.get("VNU_JAR", "")
    if jar and os.path.exists(jar) and shutil.which("java"):
        return True
    if os.environ.get("REQUIRE_VNU"):
        raise RuntimeError(f"REQUIRE_VNU is set but VNU_JAR={jar!r} or java is missing")
    return False


def vnu_problems(files: list[str]) -> list[str]:
    """The Nu Html Checker's errors for the saved pages, as "file:line: message"."""
    result = subprocess.run(
        ["java", "-jar", os.environ["VNU_JAR"], "--errors-only", "--format", "json", *files],
        capture_output=True,
        text=True,
        timeout=300,
    )
    messages = json.loads(result.stderr or '{"messages": []}')["messages"]
    return [f"{m['url'].rsplit('/', 1)[-1]}:{m.get('lastLine')}: {m['message']}" for m in messages]
