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
        r'<form class="admin-language" method="post" action="([^"]+)">(.*?)</form>', html
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
