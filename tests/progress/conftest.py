"""Helpers for posting answers the way the pages do."""

import pytest

from tests.html import form_token


@pytest.fixture
def phase_token(learner_client):
    """Render a phase page and return the token of one question's form."""

    def get(code: str, number: int | None = None) -> str:
        number = number or int(code.split("-")[1])
        html = learner_client.get(f"/phase/{number}/").content.decode()
        token = form_token(html, code)
        if token is None:  # answered already: ask for a fresh form, as "Answer again" does
            fragment = learner_client.get(
                f"/question/{code}/form/", headers={"HX-Request": "true"}
            ).content.decode()
            token = form_token(fragment, code)
        assert token, f"no form for {code}"
        return token

    return get


@pytest.fixture
def post_answer(learner_client, phase_token):
    def post(code, *, choice=(), text=None, token=None, htmx=True, client=None, context=None):
        data = {"token": token or phase_token(code), "choice": list(choice)}
        if context is not None:
            data["context"] = context
        if text is not None:
            data["text"] = text
        headers = {"HX-Request": "true"} if htmx else {}
        return (client or learner_client).post(f"/question/{code}/answer/", data, headers=headers)

    return post
