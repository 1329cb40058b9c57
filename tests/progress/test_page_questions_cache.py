"""A phase page's questions, held in Django's cache, follow the rows they were read from."""

import pytest

from quizzes.models import Question, QuestionRevision

pytestmark = pytest.mark.django_db


def test_a_pages_questions_follow_their_current_revision_not_only_the_files_hash(
    seeds_imported, learner_client
):
    """They were kept by the phase file's hash and the page's codes alone: a current
    revision that changed without the file's hash (a database restored or made afresh
    while Redis kept its cache: red team 22 saw forms handed a revision of a database
    gone, every answer refused as out of date) kept showing the old one."""
    assert "Why is bf16 preferred" in learner_client.get("/phase/10/").content.decode()
    question = Question.objects.get(code="q-10-01")
    old = question.current_revision
    fields = {
        field.attname: getattr(old, field.attname)
        for field in QuestionRevision._meta.concrete_fields
        if not field.primary_key
    }
    fields |= {"number": old.number + 1, "title_en": "A title only the database has"}
    fields["content_hash"] = "0" * 64
    revision = QuestionRevision.objects.create(**fields)
    Question.objects.filter(pk=question.pk).update(current_revision=revision)

    html = learner_client.get("/phase/10/").content.decode()

    assert "A title only the database has" in html
    assert "Why is bf16 preferred" not in html
