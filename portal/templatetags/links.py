"""`{% href %}`: Django's `{% url %}`, reversed once per name, arguments and script
prefix in each process.

`reverse()` walks the URL patterns on every call (~25 µs); a learner's page calls it a
dozen times or more (the header's links, each card's form). The URL patterns never
change while a process runs, so the result is kept; the script prefix is part of the
key, for a site served under a path. Use it like `{% url %}`: positional arguments
only, `as name` supported.
"""

from functools import lru_cache

from django import template
from django.urls import get_script_prefix, reverse

register = template.Library()


@lru_cache(maxsize=8192)
def _reverse(name: str, args: tuple, prefix: str) -> str:
    return reverse(name, args=args)


@register.simple_tag
def href(name: str, *args) -> str:
    return _reverse(name, tuple(str(arg) for arg in args), get_script_prefix())
