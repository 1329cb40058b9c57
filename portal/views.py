"""Project-level pages: the health check and the bare page benchmarks compare with.
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
    """The lightest page behind login: the ceiling benchmarks compare our pages with."""
    return render(request, "portal/ping.html")
