"""What changed between two revisions of a question, in a few short English lines."""

from __future__ import annotations

from typing import Any

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
    return ", ".join(o["key"] for o in options or () if o.get("correct")) or "none"


def _mentions(mentions: list[list[str]] | None) -> list[str]:
    return [" / ".join(map(str, alternatives)) for alternatives in mentions or ()]


def _mention_changes(label: str, old: list[list] | None, new: list[list] | None) -> list[str]:
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
        edits = [f"alternatives added: {', '.join(added)}"] if added else []
        edits += [f"alternatives removed: {', '.join(removed)}"] if removed else []
        kept_order = [a for a in new_sets[n] if a in old_sets[o]]
        if not edits and kept_order != old_sets[o]:
            # The feedback names a mention by its first phrasings: the order shows.
            edits = ["phrasings reordered: " + ", ".join(new_sets[n])]
        if edits:
            lines.append(f"{label} “{old_sets[o][0]}”: " + "; ".join(edits))
    lines += _listed(
        f"{label}s",
        [" / ".join(m) for o, m in enumerate(old_sets) if o not in paired.values()],
        [" / ".join(m) for n, m in enumerate(new_sets) if n not in paired],
    )
    return lines


def _listed(label: str, old: list[str], new: list[str]) -> list[str]:
    lines = []
    added = [m for m in new if m not in old]
    removed = [m for m in old if m not in new]
    if added:
        lines.append(f"{label} added: " + "; ".join(added))
    if removed:
        lines.append(f"{label} removed: " + "; ".join(removed))
    return lines


def key_changed(old: dict[str, Any], new: dict[str, Any]) -> bool:
    """Whether an answer could be graded differently: what `regrade` is for."""
    return (
        old["kind"] != new["kind"]
        or _correct(old["options"]) != _correct(new["options"])
        or _keys(old["options"]) != _keys(new["options"])
        or _mentions(old["expected"]) != _mentions(new["expected"])
        or old.get("pass_mentions") != new.get("pass_mentions")
        or _mentions(old.get("reject")) != _mentions(new.get("reject"))
        or _numeric(old) != _numeric(new)
    )


def _numeric(content: dict[str, Any]) -> tuple:
    """A numeric key's answer and tolerance as graded (the unit is wording: an answer
    is read with it but a changed unit grades no stored answer differently)."""
    key = content.get("numeric") or {}
    return (key.get("answer"), key.get("tolerance") or 0)


def content_changes(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """Short lines saying how `new` differs from `old` (both shaped like
    QuestionDoc.content()): the key first, then the wording."""
    lines = []
    if old["kind"] != new["kind"]:
        lines.append(f"kind: {old['kind']} → {new['kind']}")
    old_keys, new_keys = _keys(old["options"]), _keys(new["options"])
    lines += _listed("options", old_keys, new_keys)
    if old_keys and new_keys and _correct(old["options"]) != _correct(new["options"]):
        lines.append(f"correct: {_correct(old['options'])} → {_correct(new['options'])}")
    lines += _mention_changes("mention", old["expected"], new["expected"])
    if old.get("pass_mentions") != new.get("pass_mentions"):
        lines.append(f"pass_mentions: {old.get('pass_mentions')} → {new.get('pass_mentions')}")
    lines += _mention_changes("rejected mention", old.get("reject"), new.get("reject"))
    if _numeric(old) != _numeric(new):
        (answer, tolerance), (new_answer, new_tolerance) = _numeric(old), _numeric(new)
        lines.append(f"answer: {answer} ± {tolerance} → {new_answer} ± {new_tolerance}")
    if ((old.get("numeric") or {}).get("unit")) != ((new.get("numeric") or {}).get("unit")):
        lines.append("unit changed")
    if (old.get("examples") or []) != (new.get("examples") or []):
        lines.append("examples changed")

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
            wording.append(f"option {option['key']}")
    if wording:
        prefix = "text: " if lines else "text only: "
        lines.append(prefix + ", ".join(wording))
    return lines
