"""The YAML line a key change proposes is one the importer takes, whatever the key it
is added to: red-team run 16 found lines past a key's limits (quiz-format.md, "Limits of
a free key") when the mention already held 100 alternatives, or the key 200 words."""

import json
from io import StringIO

import pytest
from django.core.management import call_command

from quizzes.loader import load_quiz_set
from teaching.key_proposal import key_proposal
from teaching.models import Cohort
from tests.factories import UserFactory, answer
from tests.quizzes.cases import MINIMAL

pytestmark = pytest.mark.django_db

KEY_LINE = "      - [identity, identidad]"
TEXT = "the residual stream carries the signal unchanged"


def letters(n: int) -> list[str]:
    """n distinct made-up words: "kaa", "kab"…"""
    return ["k" + chr(97 + i // 26) + chr(97 + i % 26) for i in range(n)]


def write(folder, mention: list[str]):
    folder.mkdir(exist_ok=True)
    text = MINIMAL.replace(KEY_LINE, "      - " + json.dumps(mention))
    (folder / "phase-01-basics.yaml").write_text(text, encoding="utf-8")
    return text


WIDEST = ["identity", "identidad", *letters(98)]  # 100 alternatives: a mention's most
WORDIEST = ["identity", *(" ".join(letters(200)[i : i + 20]) for i in range(0, 180, 20))]
WORDIEST.append(" ".join(letters(200)[180:199]))  # 1 + 9 × 20 + 19 = 200 words: a key's most


@pytest.mark.parametrize("mention", [WIDEST, WORDIEST], ids=["100 alternatives", "200 words"])
def test_no_line_proposed_for_a_key_at_its_limits_is_refused_by_the_importer(
    tmp_path, admin_client, mention
):
    folder = tmp_path / "set"
    text = write(folder, mention)
    assert load_quiz_set([folder]).problems == []  # the key itself imports
    call_command("import_quizzes", str(folder), stdout=StringIO())
    attempt = answer(UserFactory(username="ana"), "q-01-03", text=TEXT)

    proposal = key_proposal(attempt=attempt, learner_ids=None)

    assert proposal.right_now is False
    for change in proposal.changes:
        (folder / "phase-01-basics.yaml").write_text(
            text.replace("      - " + json.dumps(mention), "      " + change.yaml_line),
            encoding="utf-8",
        )
        assert load_quiz_set([folder]).problems == [], change.yaml_line[-60:]
    assert proposal.full == [1]
    cohort = Cohort.objects.create(name="Spring")
    cohort.learners.add(attempt.learner)
    url = f"/admin/teaching/cohort/{cohort.pk}/results/attempt/{attempt.pk}/key-change/"
    html = " ".join(admin_client.get(url).content.decode().split())
    assert "Mention 1 can take no phrase from this answer" in html
    assert "nothing to propose" not in html
