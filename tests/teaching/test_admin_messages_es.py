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

    django_own = _django_admin_spanish()
    assert all(s != m for s, m in zip(spanish, DJANGO_ADMIN_MESSAGES, strict=True))
    # Each read from the portal's catalogue, not Django's ("El invitación … agregado").
    assert [
        m for m, s in zip(DJANGO_ADMIN_MESSAGES, spanish, strict=True) if s == django_own(m)
    ] == []


def _django_admin_spanish():
    import gettext
    from pathlib import Path

    import django.contrib.admin

    locale = Path(django.contrib.admin.__file__).parent / "locale"
    return gettext.translation("django", localedir=locale, languages=["es"]).gettext
