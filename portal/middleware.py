"""Content-Security-Policy on every response.

Django 5.2 has no CSP support of its own (6.0 does), and the policy here is one fixed
header, so a small middleware is less than another dependency. No inline scripts or
styles anywhere: htmx and our CSS come from static files.
"""

from django.conf import settings


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
