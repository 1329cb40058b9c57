"""A draft kept while another request of the same learner and question keeps one and a
third clears it (an answer stored) (red team round 22: answers refused at the pace
limit and their repeats, sent at once on PostgreSQL, were a 500 once)."""

from django.db.models import QuerySet

from progress.models import Draft
from progress.services import draft_save
from tests.factories import UserFactory


def test_a_draft_kept_while_another_is_made_and_cleared_is_kept_not_a_500(
    seeds_imported, monkeypatch
):
    from quizzes.models import Question

    ana = UserFactory(username="ana")
    question = Question.objects.get(code="q-10-03")
    get, reads = QuerySet.get, []

    def others_between(self, *args, **kwargs):
        """Between this request's read and its write, another request keeps its draft;
        after its write failed on that draft, a stored answer clears it."""
        if self.model is not Draft:
            return get(self, *args, **kwargs)
        reads.append(1)
        if len(reads) > 1:
            Draft.objects.all().delete()
        try:
            return get(self, *args, **kwargs)
        finally:
            if len(reads) == 1:
                Draft.objects.create(learner=ana, question=question, answer={"text": "other"})

    monkeypatch.setattr(QuerySet, "get", others_between)

    draft_save(learner_id=ana.pk, question_id=question.pk, answer={"text": "mine, kept"})

    monkeypatch.undo()
    assert Draft.objects.get().answer == {"text": "mine, kept"}
