"""Benchmark: what grading one answer costs against the largest free keys the importer
accepts (docs/quiz-format.md, "Limits of a free key").

Builds keys at the limits, each shaped to load one part of the matcher (the typo search,
the split-word search, the placing of a phrasing's words, the occurrences of one word),
checks that the importer accepts each (a file of one question, loaded as
`import_quizzes` loads it), and times the grader on 10,000-character answers: the
grading bench's long answer (bench/grading_bench.py), and answers written against the
key (random words, the key's words, misspelt, its phrasings, its words cut into short
clauses). Each run starts with an empty word cache, as an answer of new words would. The
bank's own keys (data/quizzes) are timed the same way, for comparison.

Run with `python bench/key_limits_bench.py [--repeat N] [--only TEXT]`.
"""

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from quizzes.grading import grade, grading_prompt  # noqa: E402
from quizzes.grading.keys import as_mentions, compile_key  # noqa: E402
from quizzes.loader import load_quiz_set  # noqa: E402
from quizzes.rules import MAX_ALTERNATIVE_WORDS, MAX_KEY_WORDS  # noqa: E402
from quizzes.schema import schema  # noqa: E402

DEFS = schema()["$defs"]
MENTIONS = DEFS["mentions"]["maxItems"]  # expected, and again reject
ALTERNATIVES = DEFS["mention"]["maxItems"]
CHARACTERS = DEFS["alternative"]["maxLength"]
CONSONANTS = "bcdfghjklmnpqrstvwxz"  # no stop word, no word the vocabulary knows
SENTENCE = (  # bench/grading_bench.py's long answer
    "La fila de embedding del token raro recibe un gradiente enorme; "
    "the rare token's embedding row is not small and dominates the global norm. "
)


def distinct(rng: random.Random, length: int):
    seen = set()
    while True:
        word = "".join(rng.choice(CONSONANTS) for _ in range(length))
        if word not in seen:
            seen.add(word)
            yield word


def cycling(words: list[str]):
    while True:
        yield from words


def key_of(source, length: int) -> tuple[list, list]:
    """As many phrasings of words of `length` letters as the limits allow, each as long as
    they allow, dealt round the mentions and then the rejected ones."""
    per_phrasing = min(MAX_ALTERNATIVE_WORDS, (CHARACTERS + 1) // (length + 1))
    return key_of_phrasings(source, per_phrasing)


def key_of_phrasings(source, per_phrasing: int) -> tuple[list, list]:
    """As many phrasings of `per_phrasing` words as the limits allow, dealt round the
    mentions and then the rejected ones."""
    slots: list[list[str]] = [[] for _ in range(2 * MENTIONS)]
    used, turn = 0, 0
    while used + per_phrasing <= MAX_KEY_WORDS:
        mention = slots[turn % len(slots)]
        phrasing = " ".join(next(source) for _ in range(per_phrasing))
        assert len(phrasing) <= CHARACTERS and len(mention) < ALTERNATIVES
        mention.append(phrasing)
        used, turn = used + per_phrasing, turn + 1
    filled = [m for m in slots if m]
    return filled[:MENTIONS], filled[MENTIONS:]


def worst_keys(rng: random.Random) -> dict[str, tuple[list, list]]:
    ten = [w for w, _ in zip(distinct(rng, 2), range(10), strict=False)]
    return {
        "words of 5 letters, 1 a phrasing": key_of_phrasings(distinct(rng, 5), 1),
        "words of 5 letters, 16 a phrasing": key_of(distinct(rng, 5), 5),
        "words of 8 letters, 1 a phrasing": key_of_phrasings(distinct(rng, 8), 1),
        "10 words of 2 letters, 20 a phrasing": key_of(cycling(ten), 2),
        "1 word of 2 letters, 20 a phrasing": key_of(cycling(["bc"]), 2),
    }


def near_keys(rng: random.Random) -> dict[str, tuple[list, list, str]]:
    """Keys of words all within two edits of one word that is not in the key, each with an
    answer repeating that word (red-team run 11): every answer word is a typo of every key
    word unless the grader bounds how many one word stands for."""

    def two_edits(centre: str) -> list[str]:
        words: set[str] = set()
        while len(words) < MAX_KEY_WORDS:
            word = list(centre)
            for i in rng.sample(range(len(centre)), 2):
                word[i] = rng.choice(CONSONANTS)
            if "".join(word) != centre:
                words.add("".join(word))
        return sorted(words)

    def one_edit(centre: str) -> list[str]:  # all 95 of them, repeated as needed
        return sorted(
            {centre[:i] + c + centre[i + 1 :] for i in range(len(centre)) for c in CONSONANTS}
            - {centre}
        )

    def repeated(word: str) -> str:
        return " ".join([word] * (10_000 // (len(word) + 1)))[:10_000]

    eight, five = two_edits("bcdfghjk"), one_edit("bcdfg")
    return {
        "8 letters, 1 a phrasing": (*key_of_phrasings(iter(eight), 1), repeated("bcdfghjk")),
        "8 letters, 10 a phrasing": (*key_of_phrasings(iter(eight), 10), repeated("bcdfghjk")),
        "5 letters, 16 a phrasing": (*key_of_phrasings(cycling(five), 16), repeated("bcdfg.")),
    }


def bank_keys() -> dict[str, tuple[list, list, str]]:
    keys = {}
    for path in sorted((ROOT / "data" / "quizzes").glob("*.yaml")):
        for q in yaml.safe_load(path.read_text("utf-8"))["questions"]:
            if q["kind"] == "free":
                texts = [
                    t if isinstance(t, dict) else {"en": t} for t in (q["title"], q.get("prompt"))
                ]
                prompt = grading_prompt(*(t for t in texts if t))
                keys[f"bank {q['id']}"] = (q["expected"], q.get("reject") or [], prompt)
    return keys


def accepted(expected: list, reject: list) -> list[str]:
    """The importer's problems with a file of one free question with this key."""
    lines = ["format: 1", "phase: 1", "slug: limits", "title: Limits", "questions:"]
    lines += ["  - id: q-limits", "    kind: free", "    title: Limits", "    expected:"]
    lines += [f"      - {yaml.safe_dump(m, default_flow_style=True).strip()}" for m in expected]
    if reject:
        lines += ["    reject:"]
        lines += [f"      - {yaml.safe_dump(m, default_flow_style=True).strip()}" for m in reject]
    lines += ["    explanation: Limits."]
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "phase-01-limits.yaml").write_text("\n".join(lines) + "\n", "utf-8")
        return [str(p) for p in load_quiz_set([Path(folder)]).problems]


def answers(rng: random.Random, expected: list, reject: list) -> dict[str, str]:
    phrasings = [str(a) for m in expected + reject for a in ([m] if isinstance(m, str) else m)]
    words = [w for p in phrasings for w in p.split()]

    def fill(next_word) -> str:
        parts, size = [], 0
        while size < 10_000:
            parts.append(next_word())
            size += len(parts[-1]) + 1
        return " ".join(parts)[:10_000]

    def misspelt(word: str) -> str:
        i = rng.randrange(len(word))
        return word[:i] + rng.choice("abcdefghijklmnopqrstuvwxyz") + word[i + 1 :]

    return {
        "bench answer": fill(lambda: SENTENCE),
        "random words": fill(
            lambda: "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(7))
        ),
        "the key's words": fill(lambda: rng.choice(words)),
        "misspelt": fill(lambda: misspelt(rng.choice(words))),
        "its phrasings": fill(lambda: rng.choice(phrasings)),
        "short clauses": fill(lambda: rng.choice(words) + rng.choice(["", "", "."])),
    }


def timed(expected: list, reject: list, text: str, prompt: str, repeat: int) -> list[float]:
    def run():
        grade(
            kind="free",
            correct_keys=(),
            expected=expected,
            pass_mentions=None,
            text=text,
            reject=reject,
            prompt=prompt,
        )

    run()  # the key compiled once, as a worker keeps it
    key = compile_key(
        expected=as_mentions(expected), reject=as_mentions(reject), languages=("en", "es")
    )
    timings = []
    for _ in range(repeat):
        key.cache.clear()
        start = time.perf_counter()
        run()
        timings.append(time.perf_counter() - start)
    return timings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--only", default="", help="only the keys whose name contains this")
    args = parser.parse_args()
    rng = random.Random(7)
    keys = {name: (*key, "") for name, key in worst_keys(rng).items()} | bank_keys()
    print(
        f"Limits: {MENTIONS} mentions and {MENTIONS} rejected, {ALTERNATIVES} alternatives, "
        f"{CHARACTERS} characters and {MAX_ALTERNATIVE_WORDS} words an alternative, "
        f"{MAX_KEY_WORDS} words a key. Milliseconds to grade a 10,000-character answer, "
        f"fastest / median of {args.repeat}."
    )
    names = list(answers(rng, [["x"]], []))
    print(f"| key | {' | '.join(names)} |\n| --- |{' --- |' * len(names)}")
    for name, (expected, reject, prompt) in keys.items():
        if args.only not in name:
            continue
        problems = accepted(expected, reject)
        assert not problems, problems
        cells = []
        for text in answers(rng, expected, reject).values():
            timings = timed(expected, reject, text, prompt, args.repeat)
            cells.append(f"{min(timings) * 1000:.0f} / {statistics.median(timings) * 1000:.0f}")
        print(f"| {name} | {' | '.join(cells)} |")
    print(
        "\nKeys of words all within two edits of one word not in the key, the answer that "
        "word repeated (red-team run 11), milliseconds:\n| key | answer |\n| --- | --- |"
    )
    for name, (expected, reject, text) in near_keys(rng).items():
        if args.only not in name:
            continue
        assert not accepted(expected, reject)
        timings = timed(expected, reject, text, "", args.repeat)
        print(f"| {name} | {min(timings) * 1000:.0f} / {statistics.median(timings) * 1000:.0f} |")


if __name__ == "__main__":
    main()
