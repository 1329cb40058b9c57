"""Where a phrasing's words stand together: two slots, the common case, are placed by a
path of their own (windows._pairs); it must place exactly what the general path does."""

import random
from pathlib import Path

import yaml

from quizzes.grading import windows as placing
from quizzes.grading.keys import as_mentions, compile_key
from quizzes.grading.matcher import occurrences, read_answer

SEED_SET = Path(__file__).resolve().parents[2] / "bench" / "grading_set"


def readings():
    """Each seed question's key with its hand-marked answers, and with dense answers of
    its own words in random order, cut into clauses at random (seeded): many windows."""
    rng = random.Random(20)
    for path in sorted(SEED_SET.glob("*.yaml")):
        question = yaml.safe_load(path.read_text("utf-8"))
        expected, reject = question["key"]["expected"], question["key"].get("reject") or []
        key = compile_key(
            expected=as_mentions(expected), reject=as_mentions(reject), languages=("en", "es")
        )
        texts = [answer["text"] for answer in question["answers"]]
        phrasings = [a for m in expected + reject for a in ([m] if isinstance(m, str) else m)]
        words = " ".join(phrasings).split()
        for _ in range(20):
            picked = [rng.choice(words) + rng.choice(["", "", "", ".", ","]) for _ in range(80)]
            texts.append(" ".join(picked))
        for text in texts:
            yield key, read_answer(key=key, text=text)


def test_two_slots_are_placed_as_the_general_path_places_them():
    placed = 0
    for key, reading in readings():
        for alternatives in key.mentions + key.rejects:
            for alternative in alternatives:
                if len(alternative.slots) != 2:
                    continue
                per_slot = [occurrences(reading, slot) for slot in alternative.slots]
                pairs = list(placing._pairs(reading, alternative.slots, per_slot))
                general = list(placing._placements(reading, alternative.slots, per_slot))

                assert pairs == general
                placed += len(pairs)
    assert placed > 1000  # the answers did place many pairs: the comparison meant something
