"""An answer sent after the session ended, by a logout in another tab as often as by
expiry, and a pick as often as a text: the login page said "Your session expired; what
you typed was kept" to a learner who had logged out on purpose and typed nothing
(learner walk 37). It says the session ended and the answer was kept."""

import pytest
from django.conf import settings

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


@pytest.mark.parametrize(
    ("language", "note", "card"),
    [
        (
            "en",
            "Your session ended; your answer was kept. Log in again to go back to it.",
            "Your session had ended when you sent this answer, so it was kept here",
        ),
        (
            "es",
            "Tu sesión terminó; tu respuesta se ha guardado. Vuelve a iniciar sesión para "
            "recuperarla.",
            "Tu sesión había terminado cuando enviaste esta respuesta, así que se guardó aquí",
        ),
    ],
)
def test_a_pick_sent_after_a_logout_in_another_tab_is_called_an_answer_kept(
    seeds_imported, post_answer, phase_token, client, learner, language, note, card
):
    client.post("/language/", {"language": language, "next": "/"})
    token = phase_token("q-10-01")
    client.logout()  # the other tab's Log out (the test client forgets every cookie)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language

    response = post_answer("q-10-01", choice=["B"], token=token, client=client)
    login = client.get(response["HX-Redirect"]).content.decode()

    assert note in " ".join(login.split())
    client.force_login(learner)
    assert card in " ".join(client.get("/phase/10/").content.decode().split())
