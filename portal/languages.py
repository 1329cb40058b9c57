"""The languages the portal speaks (its pages, the quiz texts, the grader), named once."""

from django.utils.translation import gettext_lazy as _

# The first is the fallback: quiz text with no translation is shown in it.
LANGUAGES = (("en", _("English")), ("es", _("Spanish")))
LANGUAGE_CODES = tuple(code for code, name in LANGUAGES)
