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
            route = re.sub(
                r"\(\?P<(\w+)>[^)]*\)", lambda m, v=values: str(v.get(m.group(1), 1)), route
            )
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
    assert f"/admin/teaching/cohort/{world['values']['pk']}/memory/" in urls
    assert f"/admin/teaching/cohort/{world['values']['pk']}/memory/export.csv" in urls
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


# What belongs to another cohort: none of it may show on any admin page of an
# instructor who teaches a different cohort.
OTHER_SECRETS = ("zqxotherlearner", "zqxothercohort", "zqxotherinvite", "203.0.113.9")


@pytest.fixture
def other_cohort(seeds_imported):
    """Cohort "zqxothercohort", taught by someone else, with one learner who has an
    attempt, a regrade entry, audit events (one with an IP address) and an invite."""
    from django.test import RequestFactory

    from accounts.services import invite_create
    from audit.enums import AuditKind
    from audit.services import audit_record
    from progress.models import Regrade

    teacher = UserFactory(username="zqxotherteacher", is_staff=True)
    learner = UserFactory(username="zqxotherlearner")
    cohort = Cohort.objects.create(name="zqxothercohort")
    cohort.instructors.add(teacher)
    cohort.learners.add(learner)
    attempt = answer(learner, "q-10-01", keys=["A"])
    unsure = answer(learner, "q-10-03", text="it is not the identity")  # to check
    regrade = Regrade.objects.create(
        attempt=attempt,
        revision=attempt.revision,
        old_correct=False,
        old_score=0,
        new_correct=True,
        new_score=1,
        new_partial=1,
        by=teacher,
    )
    request = RequestFactory().get("/", REMOTE_ADDR="203.0.113.9")
    request.user = learner
    event = audit_record(kind=AuditKind.LOGIN, request=request, subject="zqxotherlearner")
    audit_record(kind=AuditKind.LOGIN_FAILED, request=request, subject="zqxotherlearner")
    invite, _url = invite_create(created_by=teacher, note="zqxotherinvite", cohort=cohort)
    return {
        "cohort": cohort,
        "learner": learner,
        "unsure": unsure,
        # The id to put in each admin URL: that model's row of the other cohort.
        "objects": {
            "admin/teaching/cohort/": cohort.pk,
            "admin/progress/attempt/": attempt.pk,
            "admin/progress/regrade/": regrade.pk,
            "admin/auth/user/": learner.pk,
            "admin/audit/auditevent/": event.pk,
            "admin/accounts/invite/": invite.pk,
        },
    }


def scoped_urls(other) -> list[str]:
    """Every admin URL, its ids filled with the other cohort's rows."""
    urls = set()
    for route in walk(get_resolver().url_patterns):
        if not route.startswith("admin/"):
            continue
        model_id = next(
            (pk for prefix, pk in other["objects"].items() if route.startswith(prefix)), 1
        )
        values = {
            "object_id": model_id,
            "id": model_id,
            "pk": other["cohort"].pk,
            "learner_id": other["learner"].pk,
            "attempt_id": other["unsure"].pk,
            "app_label": "teaching",
            "content_type_id": 1,
            "url": "x",
        }
        route = route.replace("^", "").replace("$", "").replace("\\Z", "")
        route = re.sub(r"\(\?P<(\w+)>[^)]*\)", lambda m, v=values: str(v.get(m.group(1), 1)), route)
        urls.add("/" + concrete(route, values))
    return sorted(urls)


def test_instructor_sees_nothing_of_another_cohort(client, other_cohort):
    from django.contrib.auth.models import Group

    teacher = UserFactory(username="teach-a", is_staff=True)
    teacher.groups.add(Group.objects.get(name="Instructors"))
    mine = Cohort.objects.create(name="Mine")
    mine.instructors.add(teacher)
    mine.learners.add(UserFactory(username="mylearner"))
    client.force_login(teacher)
    other = other_cohort
    cohort_id = other["cohort"].pk
    object_urls = 0

    for url in scoped_urls(other):
        tail = url.split("/admin/", 1)[1]
        if any(url.startswith("/" + prefix) for prefix in other["objects"]) and (
            re.search(r"/\d+/", "/" + tail.split("/", 2)[-1]) or "/results" in url
        ):
            object_urls += 1
            response = client.get(url)
            if response.status_code == 302:  # the admin's /ID/ → /ID/change/, for any ID
                assert response["Location"] == url + "change/", url
                response = client.get(response["Location"])
            assert response.status_code in (403, 404), (url, response.status_code)
            continue
        for query in ("", f"?cohort={cohort_id}", "?q=zqx", "?q=203.0.113"):
            response = client.get(url + query)
            assert response.status_code < 500, (url + query, response.status_code)
            body = "" if response.streaming else response.content.decode(errors="replace")
            for secret in OTHER_SECRETS:
                assert secret not in body, (url + query, secret)

    # Each of the six models' object pages (change, delete, history, …) and the
    # cohort's results, drill-down, answer groups, verdict override and export, its
    # answers to check with their confirm and override, the key change, and its memory
    # page and memory CSV were tried.
    assert object_urls == 6 * 4 + 1 + 5 + 4 + 2


@pytest.mark.parametrize(
    "path", ["/healthz", "/", "/phase/10/", "/progress/", "/reviews/", "/time-zone/"]
)
def test_a_page_that_answers_get_answers_head(learner_client, seeds_imported, path):
    # A monitor's HEAD /healthz, a link checker's HEAD of a page: no 405.
    get, head = learner_client.get(path), learner_client.head(path)

    assert get.status_code == 200
    assert head.status_code == 200
    assert head.content == b""
