"""Language selection: the learner's saved choice first, then the browser's."""

from django.conf import settings
from django.middleware.locale import LocaleMiddleware
from django.utils import translation

from .signals import SESSION_LANGUAGE
from .throttle import device_cookie_set


def language_cookie_set(response, language: str) -> None:
    """Remember the language in the browser, past the session (logging out ends it)."""
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )


class ProfileLocaleMiddleware(LocaleMiddleware):
    """Django's LocaleMiddleware, but a language stored in the session (copied from the
    profile at login, or chosen with the switch) wins over cookie and Accept-Language.
    Reading the session costs no query beyond the one the session already makes. The
    session's language is copied into the language cookie, so the login page after a
    logout keeps speaking it (cookie, then Accept-Language)."""

    def process_request(self, request):
        language = request.session.get(SESSION_LANGUAGE)
        if language in dict(translation.trans_real.get_languages()):
            translation.activate(language)
            request.LANGUAGE_CODE = translation.get_language()
            return
        super().process_request(request)

    def process_response(self, request, response):
        response = super().process_response(request, response)
        language = request.session.get(SESSION_LANGUAGE) if hasattr(request, "session") else None
        cookie = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
        if (
            language
            and language != cookie
            and settings.LANGUAGE_COOKIE_NAME not in response.cookies
        ):
            language_cookie_set(response, language)
        return response


class KnownDeviceMiddleware:
    """After a successful login, leave the signed cookie that marks this browser as the
    account's own, so failures from elsewhere do not hold it back (see throttle.py)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        username = getattr(request, "known_device_for", None)
        if username is not None:
            device_cookie_set(response, username)
        return response
