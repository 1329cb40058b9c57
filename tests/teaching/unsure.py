"""What the To check tests share besides the `cohort` fixture (conftest.py): learners put
in a cohort, and answers to the seed questions the grader is unsure of (or sure of)."""

from tests.factories import UserFactory

TYPO = "the residual keeps an identty path"  # q-10-03: right only through a typo
NEGATED = "it is not the identity"  # q-10-03: wrong only because of the negation
SURE = "keeps the identity path"  # q-10-03: right, no doubt
SHORT = "the rare token gets a huge gradient"  # q-19-05: a mention short


def learner_in(cohort, username):
    user = UserFactory(username=username)
    cohort.learners.add(user)
    return user
