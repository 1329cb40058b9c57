"""What changed between two revisions of a question, in a few short lines in the active
language (the import plan's in English, the admin's in the instructor's). The names of
the file's fields (kind, options, pass_mentions, title…) stay as the YAML spells them,
so an author finds them in the file."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from portal.languages import LANGUAGE_CODES

TEXTS = ("title", "prompt", "explanation")


def revision_content(revision) -> dict[str, Any]:
    """A stored QuestionRevision in the shape of QuestionDoc.content()."""
    return {
        "kind": revision.kind,
        **{name: getattr(revision, f"{name}_texts") for name in TEXTS},
        "options": revision.options,
        "expected": revision.expected,
        "pass_mentions": revision.pass_mentions,
        "reject": revision.reject,
        "examples": revision.examples,
        "numeric": revision.numeric,
    }


def _texts(value: dict[str, str] | None) -> dict[str, str]:
    return {language: text for language, text in (value or {}).items() if text}


def _keys(options: list[dict]) -> list[str]:
    return [o["key"] for o in options or ()]


def _correct(options: list[dict]) -> str:
    # In key order: an answer is graded by its keys, never by where the options stand.
    return ", ".join(sorted(o["key"] for o in options or () if o.get("correct"))) or _("none")


def options_moved(old: list[dict] | None, new: list[dict] | None) -> list[tuple[str, str]]:
    """(old key, new key) of each option whose English text now stands under another key
    (the options were lettered again): an answer's letter no longer names what it chose."""
    new_keys = {_texts(o["text"]).get("en"): o["key"] for o in new or ()}
    moved = []
    for option in old or ():
        key = new_keys.get(_texts(option["text"]).get("en"))
        if key is not None and key != option["key"]:
            moved.append((option["key"], key))
    return moved


def _mentions(mentions: list[list[str]] | None) -> list[str]:
    return [" / ".join(map(str, alternatives)) for alternatives in mentions or ()]


def _mention_changes(rejected: bool, old: list[list] | None, new: list[list] | None) -> list[str]:
    """How the mentions (lists of alternatives) changed: a mention that kept one of its
    alternatives is the same mention, edited ("mention “identity”: alternatives added:
    identité"); the others were added or removed whole. Each new mention is paired with
    the unpaired old one it shares most alternatives with."""
    old_sets = [[str(a) for a in m] for m in old or ()]
    new_sets = [[str(a) for a in m] for m in new or ()]
    paired: dict[int, int] = {}  # new index → old index
    for n, alternatives in enumerate(new_sets):
        shared = [
            (len(set(alternatives) & set(o_alts)), -o)
            for o, o_alts in enumerate(old_sets)
            if o not in paired.values() and set(alternatives) & set(o_alts)
        ]
        if shared:
            paired[n] = -max(shared)[1]
    lines = []
    for n, o in paired.items():
        added = [a for a in new_sets[n] if a not in old_sets[o]]
        removed = [a for a in old_sets[o] if a not in new_sets[n]]
        edits = [_("alternatives added: %(list)s") % {"list": ", ".join(added)}] if added else []
        if removed:
            edits.append(_("alternatives removed: %(list)s") % {"list": ", ".join(removed)})
        kept_order = [a for a in new_sets[n] if a in old_sets[o]]
        if not edits and kept_order != old_sets[o]:
            # The feedback names a mention by its first phrasings: the order shows.
            edits = [_("phrasings reordered: %(list)s") % {"list": ", ".join(new_sets[n])}]
        if edits:
            label = _("rejected mention “%(first)s”") if rejected else _("mention “%(first)s”")
            lines.append(label % {"first": old_sets[o][0]} + ": " + "; ".join(edits))
    lines += _listed(
        "rejected mentions" if rejected else "mentions",
        [" / ".join(m) for o, m in enumerate(old_sets) if o not in paired.values()],
        [" / ".join(m) for n, m in enumerate(new_sets) if n not in paired],
    )
    return lines


def _listed(what: str, old: list[str], new: list[str]) -> list[str]:
    """Entries added and removed whole; `what`: "options", "mentions" or "rejected mentions"."""
    said = {
        "options": (_("options added: %(list)s"), _("options removed: %(list)s")),
        "mentions": (_("mentions added: %(list)s"), _("mentions removed: %(list)s")),
        "rejected mentions": (
            _("rejected mentions added: %(list)s"),
            _("rejected mentions removed: %(list)s"),
        ),
    }[what]
    lines = []
    added = [m for m in new if m not in old]
    removed = [m for m in old if m not in new]
    if added:
        lines.append(said[0] % {"list": "; ".join(added)})
    if removed:
        lines.append(said[1] % {"list": "; ".join(removed)})
    return lines


def _example_changes(old: list[dict], new: list[dict]) -> list[str]:
    """Which examples were added, removed or edited (the grade or the language they
    state), each named by its answer: "examples changed" named none (author walk 3 of
    round 3)."""
    if old == new:
        return []
    before = {e["answer"]: e for e in old}
    after = {e["answer"]: e for e in new}
    parts = [
        (_("examples added: %(list)s"), [a for a in after if a not in before]),
        (_("examples removed: %(list)s"), [a for a in before if a not in after]),
        (_("examples edited: %(list)s"), [a for a in after if before.get(a, after[a]) != after[a]]),
    ]
    lines = [
        said % {"list": ", ".join(f"“{_cut(a)}”" for a in answers)}
        for said, answers in parts
        if answers
    ]
    return lines or [_("examples reordered")]


def _cut(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def key_changed(old: dict[str, Any], new: dict[str, Any]) -> bool:
    """Whether an answer could be graded differently: what `regrade` is for."""
    return (
        old["kind"] != new["kind"]
        or _correct(old["options"]) != _correct(new["options"])
        or sorted(_keys(old["options"])) != sorted(_keys(new["options"]))
        or _mentions(old["expected"]) != _mentions(new["expected"])
        or old.get("pass_mentions") != new.get("pass_mentions")
        or _mentions(old.get("reject")) != _mentions(new.get("reject"))
        or _numeric(old) != _numeric(new)
    )


def regradable(old: dict[str, Any], new: dict[str, Any]) -> bool:
    """Whether an answer given under `old` can be graded against `new`'s key (contents
    as `revision_content` gives them): the same kind and, for a choice question, the same
    letters, each still naming the option it named (options lettered again, added or
    removed would turn a right pick wrong and a wrong one right). `regrade` skips the
    attempts it cannot grade."""
    if old["kind"] != new["kind"]:
        return False
    same_keys = sorted(_keys(old["options"])) == sorted(_keys(new["options"]))
    return same_keys and not options_moved(old["options"], new["options"])


def _numeric(content: dict[str, Any]) -> tuple:
    """A numeric key's answer and tolerance as graded (the unit is wording: an answer
    is read with it but a changed unit grades no stored answer differently)."""
    key = content.get("numeric") or {}
    return (key.get("answer"), key.get("tolerance") or 0)


def content_changes(old: dict[str, Any], new: dict[str, Any], *, wording=True) -> list[str]:
    """Short lines saying how `new` differs from `old` (both shaped like
    QuestionDoc.content()): the key first, then (with `wording`) the wording."""
    lines = []
    if old["kind"] != new["kind"]:
        lines.append(_("kind: %(old)s → %(new)s") % {"old": old["kind"], "new": new["kind"]})
    old_keys, new_keys = _keys(old["options"]), _keys(new["options"])
    lines += _listed("options", old_keys, new_keys)
    if old_keys and new_keys and _correct(old["options"]) != _correct(new["options"]):
        was, now = _correct(old["options"]), _correct(new["options"])
        lines.append(_("correct: %(old)s → %(new)s") % {"old": was, "new": now})
    moved = options_moved(old["options"], new["options"])
    if not moved and old_keys != new_keys and sorted(old_keys) == sorted(new_keys):
        # Shown in another order, each key naming what it named: no answer grades otherwise.
        lines.append(_("options reordered: %(list)s") % {"list": ", ".join(new_keys)})
    if moved:
        pairs = ", ".join(f"{was} → {now}" for was, now in moved)
        lines.append(
            _("options moved to another key (a regrade skips the attempts): %(list)s")
            % {"list": pairs}
        )
    lines += _mention_changes(False, old["expected"], new["expected"])
    if old.get("pass_mentions") != new.get("pass_mentions"):
        # Unset means every mention is needed: say so, not Python's "None".
        was, now = (
            _("every mention") if content.get("pass_mentions") is None else content["pass_mentions"]
            for content in (old, new)
        )
        lines.append(_("pass_mentions: %(old)s → %(new)s") % {"old": was, "new": now})
    lines += _mention_changes(True, old.get("reject"), new.get("reject"))
    if _numeric(old) != _numeric(new):
        # A side that is no numeric question (its kind changed) has no answer: "—", not
        # Python's "None ± 0" (author walk 5).
        was, now = (
            "—" if answer is None else f"{answer} ± {tolerance}"
            for answer, tolerance in (_numeric(old), _numeric(new))
        )
        lines.append(_("answer: %(old)s → %(new)s") % {"old": was, "new": now})
    # Each language's unit as it was and is: "unit changed" said neither (author walk 3
    # of round 3); a Spanish unit added is "unit (es): — → GB".
    units = [_texts((content.get("numeric") or {}).get("unit")) for content in (old, new)]
    for language in LANGUAGE_CODES:
        was, now = (unit.get(language) or "—" for unit in units)
        if was != now:
            said = _("unit (%(language)s): %(old)s → %(new)s")
            lines.append(said % {"language": language, "old": was, "new": now})
    lines += _example_changes(old.get("examples") or [], new.get("examples") or [])
    if not wording:
        return lines

    wording = []
    for name in TEXTS:
        before, after = _texts(old.get(name)), _texts(new.get(name))
        languages = [lang for lang in LANGUAGE_CODES if before.get(lang) != after.get(lang)]
        if languages:
            wording.append(f"{name} ({', '.join(languages)})")
    old_options = {o["key"]: _texts(o["text"]) for o in old["options"] or ()}
    for option in new["options"] or ():
        before = old_options.get(option["key"])
        if before is not None and before != _texts(option["text"]):
            wording.append(_("option %(key)s") % {"key": option["key"]})
    if wording:
        said = _("text: %(parts)s") if lines else _("text only: %(parts)s")
        lines.append(said % {"parts": ", ".join(wording)})
    return lines
