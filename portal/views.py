"""Project-level pages: the home page and the health check."""

from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from quizzes.models import Phase


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    phases = Phase.objects.active().order_by("number")
    return render(request, "portal/home.html", {"phases": phases})


@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return JsonResponse({"status": "ok"})
