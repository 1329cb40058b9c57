"""`{% fragment "name" key=value … %}…{% endfragment %}`: whole elements that are the
same for many requests, rendered once and held in the one cache (portal/caching.py),
as Django's `{% cache %}` would, but through `cached()` and its per-process front.

The key names the fragment, its template's source (and that of each template it
includes directly: a fragment's includes include nothing further), the language, the
time zone, the script prefix, the static files' version and every value given. The
fragment is rendered with those values ONLY, in a plain Context, never with the page's
context: a value left out of the key cannot show in it (it renders empty, and the
page's tests see it), the CSRF token cannot be kept in it ({% csrf_token %} prints
nothing without one), and the request is not there to read. Values must be plain
(text, numbers, booleans, None; a lazy one is unwrapped): an object's repr would not
name what it shows.
"""

import copy

from django import template
from django.conf import settings
from django.contrib.staticfiles.storage import staticfiles_storage
from django.template.loader_tags import IncludeNode
from django.urls import get_script_prefix
from django.utils import timezone, translation
from django.utils.safestring import mark_safe

from portal.caching import cached, template_hash

register = template.Library()

PLAIN = (str, int, float, bool, type(None))


def static_version() -> str:
    """What the `{% static %}` URLs of a fragment depend on: the static URL and, with
    hashed file names (production), the manifest's hash, which changes with any file."""
    return f"{settings.STATIC_URL}|{getattr(staticfiles_storage, 'manifest_hash', '')}"


def _plain(name: str, key: str, value):
    """`value` as a plain value for the key: a lazy one (the header's due count) is
    read once and unwrapped, so the key holds "3", not the lazy object's repr."""
    if not isinstance(value, PLAIN):
        raise TypeError(f"fragment {name!r}: {key} is not plain ({type(value)})")
    if type(value) not in PLAIN:  # a lazy object standing for a plain value, read above
        value = copy.copy(value)  # an evaluated lazy object copies to what it wraps
    return value


class FragmentNode(template.Node):
    def __init__(self, name: str, values: dict, nodelist, templates: tuple[str, ...]):
        self.name = name
        self.values = values
        self.nodelist = nodelist
        self.templates = templates

    def render(self, context) -> str:
        values = {
            key: _plain(self.name, key, value.resolve(context))
            for key, value in self.values.items()
        }
        parts = (
            self.name,
            *(template_hash(name) for name in self.templates),
            translation.get_language(),
            timezone.get_current_timezone_name(),
            get_script_prefix(),
            static_version(),
            tuple(sorted(values.items())),
        )
        html = cached("fragment", parts, lambda: self.nodelist.render(_isolated(context, values)))
        return mark_safe(html)  # noqa: S308 - rendered by our template


def _isolated(context, values: dict) -> template.Context:
    """A plain Context holding `values` only: not the page's variables, nor its request
    (a tag that reads `context.request` finds None), with the page's rendering options
    and template, so {% include %} and autoescaping behave as on the page."""
    isolated = template.Context(
        values,
        autoescape=context.autoescape,
        use_l10n=context.use_l10n,
        use_tz=context.use_tz,
    )
    isolated.template = context.template
    isolated.template_name = context.template_name
    return isolated


@register.tag
def fragment(parser, token):
    bits = token.split_contents()
    if len(bits) < 2 or bits[1][0] not in "\"'" or bits[1][-1] != bits[1][0]:
        raise template.TemplateSyntaxError("{% fragment %} takes a quoted name first")
    values = {}
    for bit in bits[2:]:
        key, equals, value = bit.partition("=")
        if not equals or not key.isidentifier():
            raise template.TemplateSyntaxError(f"{{% fragment %}} takes key=value, not {bit!r}")
        values[key] = parser.compile_filter(value)
    nodelist = parser.parse(("endfragment",))
    parser.delete_first_token()
    if parser.origin.template_name is None:  # a template made from a string: no source to hash
        raise template.TemplateSyntaxError("{% fragment %} is for templates loaded by name")
    templates = [parser.origin.template_name]
    for include in nodelist.get_nodes_by_type(IncludeNode):
        name = include.template.var
        if not isinstance(name, str) or include.template.filters:
            raise template.TemplateSyntaxError("{% fragment %} includes templates by name only")
        templates.append(name.split("#")[0])
    return FragmentNode(bits[1][1:-1], values, nodelist, tuple(templates))
