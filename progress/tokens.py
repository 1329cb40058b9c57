"""Submission tokens: one per rendered question form.

A token is signed, so it cannot be forged, and carries the learner, the question and the
revision the form showed, a random nonce and a binding to the login that rendered it.

- The nonce is unique on Attempt, so posting one form twice (a double click, a resent
  request) stores one attempt.
- The revision is what the answer is graded against, even if an import changed the
  question's wording meanwhile (an import that changed its key refuses the form, see
  `FormOfChangedQuestion`); the question ties the token to one form (a token sent to
  another question's URL is refused, its text given back in that question's form).
- The learner's latest attempt at the question when the form was made (0: none): an
  answer sent from a form that another tab's answer has overtaken is refused, not
  stored over it (`FormOfEarlierAnswer`). None in tokens that do not say.
- The binding is a keyed hash of a random value kept in the login's session and of the
  account's password hash, so a token ends with the login that made it: after a logout
  or a password change it grades nothing. It is checked only when the poster is logged
  in; a post after the session expired can only be kept apart as a draft for its
  learner, which the learner sees and confirms after logging in again.
- The binding goes on with a keyed hash of the password hash alone (the account mark),
  which needs no session: a post without a login keeps a draft only when the account's
  password is still the one the token was made under, and only within a day
  (`LOGGED_OUT_MAX_AGE`). Any token lives at most as long as a session can
  (`MAX_AGE`, the session cookie's age).
- It ends with a keyed hash of the browser's CSRF cookie (the browser mark): only the
  browser the form was made for keeps an answer without a login, so a token copied
  elsewhere cannot plant text the learner is told they sent (red team 10). A login
  changes the cookie, and a form whose cookie changed fails Django's CSRF check anyway,
  so the learner's own posts never meet a changed cookie. Tokens made without one (no
  cookie yet, or made before the mark) are held to the account mark alone.
- The key a login's tokens are bound with is made at the login (`form_key_start`), so
  two tabs opened together after it share one; made lazily by the first form, the
  second tab's session save replaced the first's key and its answers were refused.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.core import signing
from django.utils.crypto import constant_time_compare, salted_hmac

from portal.exceptions import AppError

SALT = "progress.submission"
MAX_AGE = timedelta(seconds=settings.SESSION_COOKIE_AGE)
LOGGED_OUT_MAX_AGE = timedelta(days=1)
SESSION_KEY = "_form_key"


class BadToken(AppError):
    """A token that is forged, malformed or expired."""


@dataclass(frozen=True)
class SubmissionToken:
    learner_id: int
    question_id: int
    revision_id: int
    nonce: str
    binding: str
    latest: int | None = None  # the learner's latest attempt id at issue; 0: none yet

    def bound_to(self, *, session, user) -> bool:
        """Whether the token was issued to the login that `session` and `user` are. The
        login part alone decides (it covers the password too), so tokens made before the
        account mark was added keep working until their login ends."""
        login_part = _binding(session=session, user=user).partition(".")[0]
        return constant_time_compare(self.binding.partition(".")[0], login_part)

    def of_account(self, user, *, browser: str) -> bool:
        """Whether the token was made under `user`'s current password (no session needed)
        and for the browser whose CSRF cookie is `browser`, where it names one."""
        _session_part, mark, browser_mark, *_rest = [*self.binding.split("."), "", ""]
        if not mark or not constant_time_compare(mark, _account_mark(user)):
            return False
        return not browser_mark or constant_time_compare(browser_mark, _browser_mark(browser))


def _account_mark(user) -> str:
    return salted_hmac(f"{SALT}.account", user.get_session_auth_hash()).hexdigest()[:16]


def browser_of(request) -> str:
    """The CSRF cookie `request` came with ("" for none): the browser a token names."""
    return request.COOKIES.get(settings.CSRF_COOKIE_NAME, "")


def _browser_mark(browser: str) -> str:
    return salted_hmac(f"{SALT}.browser", browser).hexdigest()[:16]


def form_key_start(session) -> None:
    """Give a new login the key its forms' tokens are bound with (at the login)."""
    session[SESSION_KEY] = secrets.token_hex(16)


def _binding(*, session, user, browser: str = "") -> str:
    form_key = session.get(SESSION_KEY)
    if form_key is None:
        # A login from before keys were made at login: the first form makes it; the
        # session is saved with the response.
        form_key = session[SESSION_KEY] = secrets.token_hex(16)
    auth_hash = user.get_session_auth_hash()
    login_part = salted_hmac(SALT, f"{form_key}:{auth_hash}").hexdigest()[:24]
    binding = f"{login_part}.{_account_mark(user)}"
    return f"{binding}.{_browser_mark(browser)}" if browser else binding


def token_binding(request) -> str:
    """The binding of the tokens `request`'s response issues (its login's and its
    browser's), to issue many tokens for one page with one hash."""
    return _binding(session=request.session, user=request.user, browser=browser_of(request))


def token_issue(
    *,
    session,
    user,
    question_id: int,
    revision_id: int,
    binding: str | None = None,
    latest: int | None = None,
) -> str:
    """A token for one form; `binding`: `token_binding()`'s, else the login's alone (no
    browser named); `latest`: the learner's latest attempt id at the question as the
    form shows it (0: none), or None not to check for answers sent since."""
    binding = binding or _binding(session=session, user=user)
    payload = [user.pk, question_id, revision_id, secrets.token_hex(16), binding]
    if latest is not None:
        payload.append(latest)
    return signing.dumps(payload, salt=SALT)


def token_read(raw: str, *, max_age: timedelta = MAX_AGE) -> SubmissionToken:
    try:
        payload = signing.loads(raw[:512], salt=SALT, max_age=max_age)
        learner_id, question_id, revision_id, nonce, binding, *rest = payload
    except (signing.BadSignature, ValueError, TypeError) as exc:
        raise BadToken(str(exc)) from None
    latest = rest[0] if len(rest) == 1 else None
    ids = (learner_id, question_id, revision_id)
    if len(rest) > 1 or not all(isinstance(v, int) for v in ids):
        raise BadToken("malformed token")
    if not (latest is None or isinstance(latest, int)):
        raise BadToken("malformed token")
    return SubmissionToken(learner_id, question_id, revision_id, str(nonce), str(binding), latest)


def token_learner(raw: str) -> int | None:
    """The learner a token names, or None when it does not read."""
    try:
        return token_read(raw).learner_id
    except BadToken:
        return None
