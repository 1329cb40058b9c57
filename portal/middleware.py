"""Project middleware: the Content-Security-Policy, and login redirects htmx can follow.

Content-Security-Policy on every response.

Django 5.2 has no CSP support of its own (6.0 does), and the policy here is one fixed
header, so a small middleware is less than another dependency. No inline scripts or
styles anywhere: htmx and our CSS come from static files.
"""

from urllib.parse import urlencode, urlsplit

from django.conf import settings
from django.contrib.auth import middleware as auth_middleware
from django.shortcuts import resolve_url
from django_htmx.http import HttpResponseClientRedirect


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response
        self.policy = "; ".join(
            f"{directive} {' '.join(sources)}".strip()
            for directive, sources in settings.CONTENT_SECURITY_POLICY.items()
        )

    def __call__(self, request):
        response = self.get_response(request)
        response.headers.setdefault("Content-Security-Policy", self.policy)
        return response


class LoginRequiredMiddleware(auth_middleware.LoginRequiredMiddleware):
    """Django's, except that an htmx request is sent to the login page as a whole page.

    Redirected normally, htmx would follow the redirect and swap the login form into
    the question card, where it cannot log in. The login page then says that the
    session expired and returns to the page the learner was on.
    """

    def handle_no_permission(self, request, view_func):
        if request.headers.get("HX-Request") != "true":
            return super().handle_no_permission(request, view_func)
        page = urlsplit(request.headers.get("HX-Current-URL", ""))
        same_site = not page.netloc or page.netloc == request.get_host()
        next_path = page.path if same_site and page.path.startswith("/") else "/"
        if page.query and same_site:
            next_path += f"?{page.query}"
        query = urlencode({"next": next_path, "reason": "expired"})
        return HttpResponseClientRedirect(f"{resolve_url(self.get_login_url(view_func))}?{query}")
