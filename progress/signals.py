"""Receivers that keep progress's figures in step with other apps' writes."""

from django.dispatch import receiver

from quizzes.signals import questions_placed

from .services import learner_phase_recount


@receiver(questions_placed)
def phase_totals_follow_import(sender, *, phase_ids, **kwargs) -> None:
    """A question retired, moved or back changes which questions a phase's first-try
    totals count."""
    learner_phase_recount(phase_ids=phase_ids)
