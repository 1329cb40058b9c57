"""portal.caching: the one cache, keyed by what a value depends on."""

import hashlib
from pathlib import Path

import pytest
from django.core.cache import cache
from django.test import override_settings

from portal import caching
from portal.caching import cache_key, cached, front_clear, template_hash

TEMPLATE = Path(__file__).resolve().parents[2] / "templates" / "progress" / "_question.html"


def test_cached_computes_once_per_key_and_keeps_falsy_values():
    cache.clear()
    front_clear()
    calls = []

    def compute(value):
        calls.append(value)
        return value

    for _ in range(3):
        assert cached("test", ("a", 1), lambda: compute("")) == ""
        assert cached("test", ("a", 2), lambda: compute("two")) == "two"

    assert calls == ["", "two"]


def test_a_process_reads_its_recent_entries_from_its_front_not_the_backend(monkeypatch):
    cache.clear()
    front_clear()
    cached("test", ("front",), lambda: "value")
    reads = []
    monkeypatch.setattr(caching.cache, "get", lambda *args: reads.append(args))

    assert cached("test", ("front",), lambda: "computed again") == "value"
    assert reads == []


def test_the_front_is_bounded_and_drops_the_least_recently_read(monkeypatch):
    front_clear()
    monkeypatch.setattr(caching, "FRONT_ENTRIES", 2)
    for name in ("a", "b"):
        cached("test", (name,), lambda name=name: name)
    cached("test", ("a",), lambda: "a")  # read: now the most recent
    cached("test", ("c",), lambda: "c")
    cache.clear()  # what the front no longer holds is computed again

    assert cached("test", ("a",), lambda: "a again") == "a"
    assert cached("test", ("c",), lambda: "c again") == "c"
    assert cached("test", ("b",), lambda: "b again") == "b again"


def test_another_process_reads_the_backends_entry():
    cache.clear()
    front_clear()
    cached("test", ("shared",), lambda: "kept")
    front_clear()  # another process, one cache (Redis)

    assert cached("test", ("shared",), lambda: "computed again") == "kept"


def test_keys_are_short_safe_and_name_their_parts_types():
    key = cache_key("card-piece", "a b\n" * 200, 1)

    assert key.startswith("card-piece:") and len(key) == len("card-piece:") + 32
    assert " " not in key
    assert cache_key("x", 1) != cache_key("x", "1")


def test_template_hash_is_the_hash_of_the_templates_source():
    expected = hashlib.blake2b(TEMPLATE.read_bytes(), digest_size=16).hexdigest()

    assert template_hash("progress/_question.html") == expected


@pytest.mark.django_db
def test_a_changed_template_source_keeps_its_pieces_apart(seeds_imported, monkeypatch):
    """A deploy that edits the card's template never serves pieces of the old one."""
    from progress.templatetags import card_pieces
    from quizzes.models import Question

    cache.clear()
    front_clear()
    question = Question.objects.select_related("current_revision").get(code="q-10-01")
    renders = []
    real = card_pieces.get_template

    def counting(name):
        renders.append(name)
        return real(name)

    monkeypatch.setattr(card_pieces, "get_template", counting)
    card_pieces.card_head(question)
    card_pieces.card_head(question)
    monkeypatch.setattr(card_pieces, "template_hash", lambda name: "edited")
    card_pieces.card_head(question)

    assert renders == [card_pieces.HEAD, card_pieces.HEAD]


def test_while_debugging_the_template_is_read_afresh(tmp_path, settings):
    page = tmp_path / "page.html"
    page.write_text("one")
    engine = [{**settings.TEMPLATES[0], "DIRS": [tmp_path]}]
    with override_settings(DEBUG=True, TEMPLATES=engine):
        before = template_hash("page.html")
        page.write_text("two")
        assert template_hash("page.html") != before
