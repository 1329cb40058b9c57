"""The bare site's one page."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.urls import path


@login_required
def bare(request):
    return render(request, "bare.html")


urlpatterns = [path("bare/", bare)]
