"""Where a question of a phase lives: which page of the phase page, and its link.

A phase can hold hundreds of questions; its page shows them `PHASE_PAGE_SIZE` at a time.
Every link to a question goes through `question_href`, so a link always names the page
that holds the question (page 1 keeps the plain `/phase/N/#CODE`).
"""

from urllib.parse import urlencode

from django.conf import settings

from portal.links import href


def page_size() -> int:
    return settings.PHASE_PAGE_SIZE


def page_number(raw: str | None) -> int:
    """The page a `?page=` asks for; a value that is no number asks for the first."""
    try:
        return int(raw or 1)
    except ValueError:
        return 1


def page_of(*, ordinal: int) -> int:
    """The page (from 1) that holds the question at `ordinal` (from 0) of its phase."""
    return ordinal // page_size() + 1


def page_href(*, phase_number: int, page: int) -> str:
    url = href("progress:phase", phase_number)
    return url if page <= 1 else f"{url}?page={page}"


def question_href(*, phase_number: int, code: str, page: int) -> str:
    return f"{page_href(phase_number=phase_number, page=page)}#{code}"


def again_href(*, phase_number: int, code: str) -> str:
    """The phase page that holds question `code`, with its form shown again: where
    "Answer again" goes without JavaScript, and an invalid answer is redirected."""
    return f"{href('progress:phase', phase_number)}?again={code}#{code}"


def reviews_answered_href(*, code: str) -> str:
    """The reviews page with the feedback of the latest answer to `code`: where an answer
    sent from it lands, redirected to without htmx, in the address bar with htmx."""
    return f"{href('progress:reviews')}?{urlencode({'answered': code})}"
