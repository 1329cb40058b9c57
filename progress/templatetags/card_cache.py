"""A per-process cache for the question card's pieces.

A card's HTML depends only on immutable things (a revision, an attempt) and a few small
values (language, tries, focus...), except for two per-render secrets: the submission
token and the CSRF_MARK token. The block is rendered once with placeholders for those two,
kept, and the real values are put in on every later use. Keys name content, not rows: a
revision by its content hash, an attempt by its unique submission token, so an entry
cannot go stale even if a database is reset under a running process.
"""

from collections import OrderedDict
from threading import Lock

from django import template
from django.utils.safestring import mark_safe

register = template.Library()

TOKEN_MARK = "Zsubmissiontokenplaceholder0"  # noqa: S105 - a placeholder, no secret
CSRF_MARK = "Zcsrftokenplaceholder0"
MAX_ENTRIES = 4096
_cache: OrderedDict = OrderedDict()
_lock = Lock()


def _hashable(value):
    try:
        hash(value)
    except TypeError:
        return repr(value)
    return value


class CardCacheNode(template.Node):
    def __init__(self, nodelist, key_parts):
        self.nodelist = nodelist
        self.key_parts = key_parts

    def render(self, context):
        key = tuple(_hashable(part.resolve(context)) for part in self.key_parts)
        state = context.get("state")
        token = getattr(state, "token", "")
        csrf = str(context.get("csrf_token", ""))
        with _lock:
            cached = _cache.get(key)
            if cached is not None:
                _cache.move_to_end(key)
        if cached is None:
            if state is not None:
                state.token = TOKEN_MARK
            with context.push(csrf_token=CSRF_MARK):
                cached = self.nodelist.render(context)
            if state is not None:
                state.token = token
            with _lock:
                _cache[key] = cached
                while len(_cache) > MAX_ENTRIES:
                    _cache.popitem(last=False)
        return mark_safe(cached.replace(TOKEN_MARK, token).replace(CSRF_MARK, csrf))  # noqa: S308


def clear() -> None:
    with _lock:
        _cache.clear()


@register.tag
def cardcache(parser, token):
    """{% cardcache part part … %}…{% endcardcache %}: cache the block under the parts."""
    bits = token.split_contents()[1:]
    nodelist = parser.parse(("endcardcache",))
    parser.delete_first_token()
    return CardCacheNode(nodelist, [parser.compile_filter(bit) for bit in bits])
