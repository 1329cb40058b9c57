"""`{% fragment %}`: whole elements kept in the one cache, rendered from the values
their key names and nothing else."""

import pytest
from django.core.cache import cache
from django.template import TemplateSyntaxError
from django.template.loader import get_template
from django.test import override_settings
from django.utils import translation

from portal.caching import front_clear
from tests.factories import UserFactory


@pytest.fixture
def templates(tmp_path, settings):
    """Templates written to a folder of their own, found by name."""
    cache.clear()
    front_clear()
    engine = [{**settings.TEMPLATES[0], "DIRS": [tmp_path]}]

    def write(name: str, text: str):
        (tmp_path / name).write_text(text)

    with override_settings(TEMPLATES=engine):
        yield write


def test_a_fragment_sees_only_the_values_its_key_names(templates):
    templates(
        "page.html",
        '{% load fragments %}{% fragment "f" n=n %}{{ n }}/{{ secret }}{% endfragment %}',
    )

    html = get_template("page.html").render({"n": 3, "secret": "leaked"})

    assert html == "3/"


def test_a_fragment_is_rendered_once_per_value_and_language(templates):
    templates(
        "page.html",
        '{% load fragments %}{% fragment "f" n=n %}{{ n }}{% now "u" %}{% endfragment %}',
    )
    page = get_template("page.html")

    with translation.override("en"):  # whatever language an earlier test left active
        first = page.render({"n": 1})
        again = page.render({"n": 1})
        other = page.render({"n": 2})
    with translation.override("es"):
        spanish = page.render({"n": 1})

    assert again == first
    assert other != first and other.startswith("2")
    assert spanish != first and spanish.startswith("1")


def test_a_fragment_keeps_no_csrf_token(templates, rf):
    templates(
        "page.html", '{% load fragments %}{% fragment "f" %}[{% csrf_token %}]{% endfragment %}'
    )

    html = get_template("page.html").render({}, rf.get("/"))

    assert html == "[]"


def test_a_fragment_refuses_an_object_for_a_key(templates):
    templates("page.html", '{% load fragments %}{% fragment "f" user=user %}{% endfragment %}')

    with pytest.raises(TypeError, match="user is not plain"):
        get_template("page.html").render({"user": UserFactory.build()})


def test_a_fragment_keys_on_the_templates_it_includes(templates, monkeypatch):
    from portal.templatetags import fragments

    templates("part.html", "part")
    templates(
        "page.html",
        '{% load fragments %}{% fragment "f" %}{% include "part.html" %}{% endfragment %}',
    )
    hashed = []
    monkeypatch.setattr(fragments, "template_hash", lambda name: hashed.append(name) or name)

    get_template("page.html").render({})

    assert hashed == ["page.html", "part.html"]


def test_a_fragment_includes_a_template_by_name_only(templates):
    templates(
        "page.html", '{% load fragments %}{% fragment "f" %}{% include name %}{% endfragment %}'
    )

    with pytest.raises(TemplateSyntaxError, match="by name only"):
        get_template("page.html")


@pytest.mark.django_db
def test_the_header_shows_each_user_their_own_links_and_due_count(client):
    cache.clear()
    front_clear()
    learner = UserFactory(username="ana")
    teacher = UserFactory(username="teach", is_staff=True)
    pages = {}

    for user in (learner, teacher, learner):
        client.force_login(user)
        session = client.session
        session["reviews_due"] = [3 if user.is_staff else 0, 2**40, "UTC"]
        session.save()
        pages.setdefault(user.username, []).append(client.get("/").content.decode())

    for page in pages["ana"]:  # before and after the teacher's page was kept
        assert 'href="/admin/"' not in page
        assert 'class="badge"' not in page
    assert 'href="/admin/"' in pages["teach"][0]
    assert '<span class="badge-short" aria-hidden="true">3</span>' in pages["teach"][0]


def test_a_fragment_keys_on_the_static_files_version(templates, monkeypatch):
    """A deploy with other static files (another manifest) never serves old links."""
    from portal.templatetags import fragments

    templates("page.html", '{% load fragments %}{% fragment "f" %}{% now "u" %}{% endfragment %}')
    page = get_template("page.html")
    first = page.render({})

    monkeypatch.setattr(fragments, "static_version", lambda: "static/|another-manifest")

    assert page.render({}) != first


def test_the_static_files_version_names_the_manifest(monkeypatch):
    from portal.templatetags import fragments

    class Manifest:
        manifest_hash = "abc123"

    monkeypatch.setattr(fragments, "staticfiles_storage", Manifest())

    assert fragments.static_version() == "/static/|abc123"


def test_a_fragment_does_not_see_the_request(templates, rf):
    """A tag that reads the request (here {% querystring %}) finds none inside a
    fragment: otherwise one request's query would be kept and served to the next."""
    templates(
        "page.html",
        '{% load fragments %}{% fragment "f" %}[{% querystring %}]{% endfragment %}',
    )
    page = get_template("page.html")

    with pytest.raises(AttributeError):
        page.render({}, request=rf.get("/?learner=ana"))
