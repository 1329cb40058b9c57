"""The admin's header switches the language as the learners' header does, and comes
back to the page it was switched on."""

import re

import pytest

from accounts.models import Profile


def test_an_instructor_switches_the_admin_to_spanish_and_back(client, instructor):
    client.force_login(instructor)
    page = "/admin/teaching/cohort/?o=1"

    html = client.get(page).content.decode()
    form = re.search(
        r'<form class="admin-language" method="post" action="([^"]+)" data-keep-fragment>'
        r"(.*?)</form>",
        html,
    )
    assert form, "no language switch in the admin's header"
    assert 'name="next" value="/admin/teaching/cohort/?o=1"' in form[2]
    assert 'value="es" lang="es">Español</button>' in form[2]

    switched = client.post(form[1], {"language": "es", "next": page})

    assert (switched.status_code, switched["Location"]) == (302, page)
    spanish = client.get(page).content.decode()
    assert "Cerrar sesión" in spanish
    assert 'value="en" lang="en">English</button>' in spanish
    assert Profile.objects.get(user=instructor).language == "es"


@pytest.mark.parametrize(
    "next_url",
    [
        "/admin/teaching/cohort/1/results/learner/2/attempt/3/override/",
        "/admin/teaching/cohort/1/to-check/3/confirm/",
        "/admin/teaching/cohort/1/to-check/3/override/",
        "/admin/logout/",
    ],
)
def test_the_switch_never_returns_to_an_admin_address_that_takes_only_posts(
    client, instructor, next_url
):
    """Each would answer the redirect's GET with a 405 (the red team's round 7)."""
    client.force_login(instructor)

    response = client.post("/language/", {"language": "es", "next": next_url})

    assert response["Location"] == "/"


def test_the_message_an_admin_action_leaves_takes_the_focus(seeds_imported, client, instructor):
    from teaching.models import Cohort
    from tests.factories import UserFactory, answer

    cohort = Cohort.objects.create(name="Spring")
    cohort.instructors.add(instructor)
    ana = UserFactory(username="ana")
    cohort.learners.add(ana)
    attempt = answer(ana, "q-10-03", text="no idea")
    client.force_login(instructor)
    override = f"/admin/teaching/cohort/{cohort.pk}/to-check/{attempt.pk}/override/"

    page = client.post(override, {"verdict": "right", "reason": "ok", "seen": 0}, follow=True)

    assert '<ul class="messagelist" tabindex="-1" autofocus><li class="success">' in (
        page.content.decode()
    )


def test_the_admin_search_box_is_named_in_spanish(client, instructor):
    # (UX walk 31) Django's own search form names the box by an image whose alt text is
    # "Search", untranslated: a screen reader read the Spanish attempts list's box in English.
    Profile.objects.filter(user=instructor).update(language="es")
    client.force_login(instructor)

    html = client.get("/admin/progress/attempt/").content.decode()

    assert 'id="searchbar"' in html
    assert 'alt="Buscar"' in html
    assert 'alt="Search"' not in html
