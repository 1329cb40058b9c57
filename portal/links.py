"""Links reversed once per process: `href(name, *args)` is `reverse(name, args=args)`,
kept per name, arguments and script prefix.

`reverse()` walks the URL patterns on every call (~25 µs); a learner's page asks for a
dozen links or more (the header's, each card's form, "Next question", "Answer again").
The URL patterns never change while a process runs, so the result is kept; the script
prefix is part of the key, for a site served under a path. Templates use it as
`{% href %}` (portal/templatetags/links.py).
"""

from functools import lru_cache

from django.urls import get_script_prefix, reverse


@lru_cache(maxsize=8192)
def _reverse(name: str, args: tuple, prefix: str) -> str:
    return reverse(name, args=args)


def href(name: str, *args) -> str:
    return _reverse(name, tuple(str(arg) for arg in args), get_script_prefix())
