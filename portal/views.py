"""Project-level pages: the health check and /ping/, the lightest page behind login.
(The home page is the learner's, in progress.views.)"""

from django.contrib.auth.decorators import login_not_required
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from portal.http import require_GET


@login_not_required
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return JsonResponse({"status": "ok"})


@require_GET
def ping(request: HttpRequest) -> HttpResponse:
    """The lightest page behind login. The serving benchmarks compare with bench/bare/'s
    page instead, a Django site of its own (docs/performance.md)."""
    return render(request, "portal/ping.html")
