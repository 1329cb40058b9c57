"""The one cache: Django's (`settings.CACHES`, see portal/settings/base.py), read and
filled through `cached()` by everything that keeps a value computed from content.

A key names everything its value depends on (a content hash, the renderer's version, a
template's source hash, the language, the script prefix), so an entry never goes stale:
a change makes another key, and the old entry ages out under the backend's bound
(LocMemCache's MAX_ENTRIES, Redis's maxmemory). `CACHES["default"]["VERSION"]`
(DJANGO_CACHE_VERSION) covers a deploy whose code changes what is kept. A small map
per process stands in front (below).
"""

import hashlib
from collections import OrderedDict
from collections.abc import Callable
from functools import cache as memoize
from pathlib import Path
from threading import Lock
from typing import TypeVar

from django.conf import settings
from django.core.cache import cache
from django.template.loader import get_template

_MISSING = object()
T = TypeVar("T")


def cache_key(namespace: str, *parts) -> str:
    """`namespace` and a digest of `parts`: they may hold what a backend refuses in a
    key (spaces, long texts), and their repr names their types too."""
    digest = hashlib.blake2b(repr(parts).encode(), digest_size=16).hexdigest()
    return f"{namespace}:{digest}"


# In front of Django's cache, each process keeps the entries it read last, as they are:
# the backend unpickles a value on every read (a Redis one after a round trip), and a
# phase page reads a dozen (measured in one process: 327 µs a page from LocMemCache,
# 23 µs from this map; the page's questions, model instances, 133 µs of it). An entry
# never goes stale, since its key names what it depends on; a value is shared by the
# requests of the process, so what is kept is never changed after it is computed.
FRONT_ENTRIES = 2048
_front: OrderedDict[str, object] = OrderedDict()
_front_lock = Lock()


def cached(namespace: str, parts: tuple, compute: Callable[[], T]) -> T:
    """The value kept under (`namespace`, `parts`), computed and kept when missing."""
    key = cache_key(namespace, *parts)
    with _front_lock:
        value = _front.get(key, _MISSING)
        if value is not _MISSING:
            _front.move_to_end(key)
            return value
    value = cache.get(key, _MISSING)
    if value is _MISSING:
        value = compute()
        cache.set(key, value)
    with _front_lock:
        _front[key] = value
        while len(_front) > FRONT_ENTRIES:
            _front.popitem(last=False)  # the least recently read
    return value


def front_clear() -> None:
    """Empty this process's front (tests standing for another process)."""
    with _front_lock:
        _front.clear()


def template_hash(name: str) -> str:
    """A hash of template `name`'s source file, for the keys of what it renders. Read
    once per process (a deploy restarts the workers); afresh each time while
    debugging, when templates are edited under a running server."""
    return _template_hash(name) if settings.DEBUG else _template_hash_once(name)


def _template_hash(name: str) -> str:
    path = get_template(name).origin.name
    return hashlib.blake2b(Path(path).read_bytes(), digest_size=16).hexdigest()


# Per name, not only per file: finding the template (get_template) cost ~7 µs a call,
# and a phase page asks a dozen times.
_template_hash_once = memoize(_template_hash)
