"""Learner page URLs."""

from django.urls import path

from . import views

app_name = "progress"

urlpatterns = [
    path("phase/<int:number>/", views.phase_detail, name="phase"),
    path("question/<str:code>/form/", views.question_form, name="question_form"),
    path("question/<str:code>/answer/", views.answer, name="answer"),
    path("question/<str:code>/draft/", views.draft, name="draft"),
    path("progress/", views.my_progress, name="my_progress"),
    path("reviews/", views.reviews, name="reviews"),
]
