"""Submission tokens: one per rendered question form.

A token is signed, so it cannot be forged, and carries the learner, the revision the form
showed and a random nonce. The nonce is unique on Attempt, so posting one form twice
(a double click, a resent request) stores one attempt; the revision is what the answer is
graded against, even if an import changed the question meanwhile; the learner lets a
draft be kept when the session expired while the learner was typing.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.core import signing

SALT = "progress.submission"
MAX_AGE = timedelta(days=30)


class BadToken(Exception):
    pass


@dataclass(frozen=True)
class SubmissionToken:
    learner_id: int
    revision_id: int
    nonce: str


def token_issue(*, learner_id: int, revision_id: int) -> str:
    return signing.dumps([learner_id, revision_id, secrets.token_hex(16)], salt=SALT)


def token_read(raw: str) -> SubmissionToken:
    try:
        learner_id, revision_id, nonce = signing.loads(raw[:512], salt=SALT, max_age=MAX_AGE)
    except (signing.BadSignature, ValueError, TypeError) as exc:
        raise BadToken(str(exc)) from None
    if not (isinstance(learner_id, int) and isinstance(revision_id, int)):
        raise BadToken("malformed token")
    return SubmissionToken(learner_id, revision_id, str(nonce))
