"""Receivers that keep progress's figures in step with other apps' writes, and
start a login's form key."""

from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver

from quizzes.signals import questions_placed

from .services import learner_phase_recount
from .tokens import form_key_start


@receiver(questions_placed)
def phase_totals_follow_import(sender, *, phase_ids, **kwargs) -> None:
    """A question retired, moved or back changes which questions a phase's first-try
    totals count."""
    learner_phase_recount(phase_ids=phase_ids)


@receiver(user_logged_in)
def form_key_at_login(sender, request, user, **kwargs) -> None:
    """The key this login's answer forms are bound with, made once at the login: two
    tabs opened together right after it then share it (progress.tokens)."""
    if request is not None and hasattr(request, "session"):
        form_key_start(request.session)
