"""Project-level pages: the home page and the health check."""

from django.contrib.auth.decorators import login_not_required
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from progress.selectors import learner_progress, phase_in_progress


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    phases = learner_progress(learner=request.user)
    return render(
        request,
        "portal/home.html",
        {"phases": phases, "current": phase_in_progress(phases=phases)},
    )


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
