"""factory_boy factories and recording helpers shared by the tests: learners, cohorts,
attempts."""

import factory
from django.contrib.auth import get_user_model

from accounts.models import Profile
from progress.services import answer_parse, attempt_record
from quizzes.models import Question

PASSWORD = "correct-horse-battery-42"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"learner{n}")
    password = factory.PostGenerationMethodCall("set_password", PASSWORD)

    @factory.post_generation
    def profile(self, create, extracted, **kwargs):
        if create:
            self.save()
            Profile.objects.get_or_create(user=self, defaults={"language": extracted or "en"})


def answer(learner, code, keys=(), text=""):
    """Record one attempt of `learner` at question `code`, as the answer page would."""
    revision = Question.objects.get(code=code).current_revision
    attempt, _ = attempt_record(
        learner=learner,
        revision=revision,
        nonce=f"n-{learner.pk}-{code}-{Question.objects.get(code=code).attempts.count()}",
        answer=(
            answer_parse(revision=revision, keys=[], text=text)
            if revision.kind == "numeric"
            else {"text": text}
            if revision.kind == "free"
            else {"keys": list(keys)}
        ),
        language="en",
    )
    return attempt


class CohortFactory(factory.django.DjangoModelFactory):
    """A cohort; `learners` and `instructors` take lists of users."""

    class Meta:
        model = "teaching.Cohort"
        skip_postgeneration_save = True

    name = factory.Sequence(lambda n: f"Cohort {n}")

    @factory.post_generation
    def learners(self, create, extracted, **kwargs):
        if create and extracted:
            self.learners.add(*extracted)

    @factory.post_generation
    def instructors(self, create, extracted, **kwargs):
        if create and extracted:
            self.instructors.add(*extracted)


class AttemptFactory(factory.Factory):
    """An attempt recorded the way the answer page records it (graded, with its
    standing and review card): `AttemptFactory(learner=…, code="q-10-01", keys=["B"])`."""

    class Meta:
        model = dict  # built by _create through the service, not by the model

    learner = factory.SubFactory(UserFactory)
    code = "q-10-01"
    keys = ()
    text = ""

    @classmethod
    def _create(cls, model_class, learner, code, keys, text):
        return answer(learner, code, keys=keys, text=text)
