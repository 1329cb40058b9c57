"""factory_boy factories shared by the tests."""

import factory
from django.contrib.auth import get_user_model

from accounts.models import Profile
from progress.services import attempt_record
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
        answer={"text": text} if revision.kind == "free" else {"keys": list(keys)},
        language="en",
    )
    return attempt
