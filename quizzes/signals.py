"""Signals the importer sends, so apps that keep figures per phase can follow it
without quizzes knowing about them."""

from django.dispatch import Signal

# Sent inside the import's transaction with `phase_ids`: the phases whose set of
# active questions changed (a question retired, moved in or out, or back).
questions_placed = Signal()
