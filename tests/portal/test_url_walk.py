"""Every URL in the URL conf, walked as an anonymous visitor and as a learner: neither
reaches the admin, an instructor view, or anything of another learner's."""

import re

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

from teaching.models import Cohort
from tests.factories import UserFactory, answer

pytestmark = pytest.mark.django_db

# Pages anyone may open (login, one-time links, health, language switch).
PUBLIC = {"/login/", "/admin/login/", "/healthz", "/language/", "/setup/x/", "/invite/x/"}
# POST-only endpoints that authenticate by the signed token in the form, not the session.
TOKEN_POSTS = {"/question/q-10-01/answer/", "/question/q-10-01/draft/"}


def concrete(route: str, values: dict) -> str:
    def value(match):
        converter, name = (match.group(1) or "str"), match.group(2)
        return str(values.get(name, 1 if converter == "int" else "x"))

    return re.sub(r"<(?:(\w+):)?(\w+)>", value, route)


def walk(patterns, prefix=""):
    for pattern in patterns:
        route = str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            yield from walk(pattern.url_patterns, prefix + route)
        elif isinstance(pattern, URLPattern):
            yield prefix + route


def all_urls(values) -> list[str]:
    urls = set()
    for route in walk(get_resolver().url_patterns):
        route = route.replace("^", "").replace("$", "").replace("\\Z", "")
        if "(?P<" in route:  # the admin's regex routes: fill the named groups
            route = re.sub(r"\(\?P<(\w+)>[^)]*\)", lambda m: str(values.get(m.group(1), 1)), route)
        urls.add("/" + concrete(route, values))
    return sorted(urls)


@pytest.fixture
def world(seeds_imported):
    other = UserFactory(username="zqxotherlearner")
    attempt = answer(other, "q-10-01", keys=["A"])
    cohort = Cohort.objects.create(name="C")
    cohort.learners.add(other)
    return {
        "values": {
            "number": 10,
            "code": "q-10-01",
            "token": "x",
            "pk": cohort.pk,
            "learner_id": other.pk,
            "object_id": attempt.pk,
            "app_label": "teaching",
            "content_type_id": 1,
        },
        "other": other,
    }


def test_url_walk_covers_the_site(world):
    urls = all_urls(world["values"])

    assert "/admin/teaching/cohort/1/results/".replace("1", str(world["values"]["pk"])) in urls
    assert "/phase/10/" in urls
    assert len(urls) > 60


def test_anonymous_visitor_gets_only_public_pages(client, world):
    for url in all_urls(world["values"]):
        response = client.get(url)
        if url in PUBLIC or url in TOKEN_POSTS or url.startswith("/static/"):
            assert response.status_code in (200, 302, 404, 405, 410), url
            continue
        assert response.status_code in (302, 404), (url, response.status_code)
        if response.status_code == 302:
            assert response["Location"].startswith(("/login/", "/admin/login/")), url


def test_learner_gets_no_admin_and_nothing_of_another_learner(client, world):
    learner = UserFactory(username="me")
    client.force_login(learner)
    secret = "zqxotherlearner"

    for url in all_urls(world["values"]):
        response = client.get(url)
        if url == "/admin/login/":  # the admin's login form, which says "not authorized"
            assert "not authorized" in response.content.decode()
            continue
        if url.startswith("/admin/"):
            assert response.status_code in (302, 404, 405), (url, response.status_code)
            if response.status_code == 302:  # to the admin's login, or its index, which is too
                assert response["Location"].startswith("/admin/login/") or (
                    response["Location"] == "/admin/"
                ), url
            continue
        assert response.status_code < 500, url
        body = response.content.decode(errors="replace") if not response.streaming else ""
        assert secret not in body, url
