"""The admin's save messages in Spanish agree with any model's gender: Django's own say
"El invitación … fue agregado"."""

from django.contrib.auth import get_user_model

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
    assert get_user_model().objects.count() == 1
