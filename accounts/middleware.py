"""Language selection: the learner's saved choice first, then the browser's."""

from django.middleware.locale import LocaleMiddleware
from django.utils import translation

from .signals import SESSION_LANGUAGE


class ProfileLocaleMiddleware(LocaleMiddleware):
    """Django's LocaleMiddleware, but a language stored in the session (copied from the
    profile at login, or chosen with the switch) wins over cookie and Accept-Language.
    Reading the session costs no query beyond the one the session already makes."""

    def process_request(self, request):
        language = request.session.get(SESSION_LANGUAGE)
        if language in dict(translation.trans_real.get_languages()):
            translation.activate(language)
            request.LANGUAGE_CODE = translation.get_language()
            return
        super().process_request(request)
