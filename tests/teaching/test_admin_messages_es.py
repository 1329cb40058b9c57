"""The admin's save messages in Spanish agree with any model's gender: Django's own say
"El invitación … fue agregado"."""

from tests.factories import UserFactory


def test_adding_a_cohort_in_spanish_reads_right(client, db):
    boss = UserFactory(username="boss", is_staff=True, is_superuser=True, profile="es")
    client.force_login(boss)

    response = client.post(
        "/admin/teaching/cohort/add/",
        {"name": "Primavera", "learners": [], "instructors": []},
        follow=True,
    )

    html = response.content.decode()
    assert "Se añadió correctamente: cohorte «<a href=" in html
    assert ">Primavera</a>»." in html
    assert "El cohorte" not in html


def test_every_django_admin_message_the_portal_replaces_reads_its_own_spanish():
    from django.utils import translation

    from portal.admin import DJANGO_ADMIN_MESSAGES

    with translation.override("es"):
        spanish = [translation.gettext(message) for message in DJANGO_ADMIN_MESSAGES]

    assert all(s != m for s, m in zip(spanish, DJANGO_ADMIN_MESSAGES, strict=True))
    # Django's own: a masculine article before any model, "seleccionado/s", "usted".
    assert not [s for s in spanish if s.startswith("El ") or "/s" in s or "usted" in s]
