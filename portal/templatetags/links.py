"""`{% href %}`: Django's `{% url %}` through `portal.links.href`, reversed once per name,
arguments and script prefix in each process. Positional arguments only; `as name`
works as with any simple tag."""

from django import template

from portal import links

register = template.Library()
register.simple_tag(links.href, name="href")
