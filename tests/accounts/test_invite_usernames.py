"""Usernames chosen on an invite: taken in another case or at the same moment, held
after many refusals, accented or in another alphabet, or looking like a taken one."""

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.db.models.signals import pre_save

from accounts import services
from accounts.models import Invite
from accounts.services import invite_create
from tests.factories import UserFactory

from .test_links import account_form, link_path

pytestmark = pytest.mark.django_db
User = get_user_model()


def test_invite_username_taken_in_another_case_is_refused(client):
    UserFactory(username="Lina")
    _invite, url = invite_create()

    response = client.post(link_path(url), account_form("lina"))

    assert "A user with that username already exists." in response.content.decode()
    assert User.objects.count() == 1


def _other_request_makes_first(monkeypatch, username: str) -> None:
    """Another request's account, made between this one's form check and its save."""
    create = services._user_create

    def other_request_first(**fields):
        UserFactory(username=username)
        return create(**fields)

    monkeypatch.setattr(services, "_user_create", other_request_first)


@pytest.mark.parametrize(
    ("other", "asked", "said"),
    [
        ("ana", "ana", "A user with that username already exists."),
        ("1ucia", "lucia", "looks the same as one already taken"),
    ],
)
def test_invite_username_taken_between_the_check_and_the_save_is_refused(
    client, monkeypatch, other, asked, said
):
    """Two people redeeming invites at the same moment with one name, or two that look
    alike, both pass the form's check; the account's own check as it is saved refuses
    the second on the form, not with a 500."""
    _invite, url = invite_create()
    _other_request_makes_first(monkeypatch, other)

    response = client.post(link_path(url), account_form(asked))

    assert response.status_code == 200
    assert said in response.content.decode()
    assert Invite.objects.get().used_at is None


def test_invite_form_is_held_after_many_refused_usernames(client):
    """Each refused username tells whether an account has it: one link must not list
    them all. Once held, a post is not even checked, and makes no account."""
    from accounts.throttle import LINK_FAILURES

    UserFactory(username="held-taken")
    invite, url = invite_create()
    for _ in range(LINK_FAILURES):
        refused = client.post(link_path(url), account_form("held-taken"))
        assert refused.status_code == 200

    held = client.post(link_path(url), account_form("held-taken"))
    free_name = client.post(link_path(url), account_form("held-free"))

    page = held.content.decode()
    assert held.status_code == 429
    assert "Too many tries with this link" in page
    assert "already exists" not in page
    assert 'value="held-taken"' in page  # what was typed comes back
    assert free_name.status_code == 429
    invite.refresh_from_db()
    assert invite.used_at is None
    assert not User.objects.filter(username="held-free").exists()


def test_invite_form_hold_counts_across_workers(client, settings):
    from django.core.cache import cache

    from accounts.throttle import LINK_FAILURES

    UserFactory(username="spread-taken")
    _invite, url = invite_create()
    for _ in range(LINK_FAILURES):
        client.post(link_path(url), account_form("spread-taken"))
        if not settings.COUNTS_IN_CACHE:
            cache.clear()  # each post lands on another worker, with its own cache

    assert client.post(link_path(url), account_form("spread-taken")).status_code == 429


def test_invite_form_hold_is_per_link(client):
    from accounts.throttle import LINK_FAILURES

    _invite, url = invite_create()
    _other, other_url = invite_create()
    for _ in range(LINK_FAILURES):
        client.post(link_path(url), account_form("x") | {"password2": "different-Pass-99"})

    response = client.post(link_path(other_url), account_form("per-link"), follow=True)

    assert response.status_code == 200
    assert User.objects.filter(username="per-link").exists()


@pytest.mark.parametrize("username", ["José", "Ñandú", "zoë", "日本"])
def test_invite_accepts_accented_and_non_latin_usernames(client, username):
    _invite, url = invite_create()

    response = client.post(link_path(url), account_form(username))

    assert response.status_code == 302
    assert User.objects.filter(username=username).exists()


def test_invite_works_once_an_accented_username_exists(client):
    UserFactory(username="José")
    _invite, url = invite_create()

    response = client.post(link_path(url), account_form("learner5"))

    assert response.status_code == 302
    assert User.objects.filter(username="learner5").exists()


MIXED = "This username mixes alphabets in a way that looks like another name."
SAME = "This username looks the same as one already taken. Choose another."


@pytest.mark.parametrize(
    ("lookalike", "message"),
    [
        ("\u0430na", MIXED),  # Cyrillic a, Latin n a
        ("\u0391OC", MIXED),  # Greek capital alpha, Latin O C
        ("\u0430\u043e\u0441", SAME),  # all Cyrillic, reads "aoc"
    ],
)
def test_invite_refuses_a_username_that_looks_like_a_taken_one(client, lookalike, message):
    UserFactory(username="ana")
    UserFactory(username="aoc")
    _invite, url = invite_create()

    response = client.post(link_path(url), account_form(username=lookalike))

    assert response.status_code == 200
    assert message in response.content.decode()
    assert User.objects.filter(username=lookalike).count() == 0


def test_invite_accepts_a_username_in_another_alphabet_that_looks_like_no_one(client):
    UserFactory(username="ana")
    _invite, url = invite_create()

    response = client.post(link_path(url), account_form(username="\u0431\u043e\u0440\u0438\u0441"))

    assert response.status_code == 302
    assert User.objects.filter(username="борис").count() == 1


@pytest.mark.parametrize("name", ["\u3164\u3164", "ana\u200d", "a\u00adna"])
def test_a_username_with_characters_no_one_sees_is_refused(client, name):
    """Hangul fillers draw as nothing: such a name looks blank in every list; a joiner
    or soft hyphen makes a second "ana" (the red team's round 6)."""
    _invite, url = invite_create()

    response = client.post(link_path(url), account_form(name))

    assert "This username has characters that cannot be seen." in response.content.decode()
    assert not User.objects.exists()


def test_invite_opened_while_logged_in_says_whose_session_it_ends(client):
    client.force_login(UserFactory(username="teacher"))
    _invite, url = invite_create()

    html = client.get(link_path(url)).content.decode()

    assert "You are logged in as teacher." in html
    assert "logs you out of it" in html


def test_invite_opened_logged_out_says_nothing_of_a_session(client):
    _invite, url = invite_create()

    assert "You are logged in as" not in client.get(link_path(url)).content.decode()


@pytest.mark.parametrize(
    ("taken", "new"), [("lucia", "1ucia"), ("oscar", "0scar"), ("maria", "rnaria")]
)
def test_invite_username_that_reads_as_a_taken_latin_one_is_refused(client, taken, new):
    UserFactory(username=taken)
    _invite, url = invite_create()

    response = client.post(link_path(url), account_form(new))

    assert "looks the same as one already taken" in response.content.decode()
    assert not User.objects.filter(username=new).exists()


@pytest.mark.django_db(transaction=True)
def test_parallel_posts_to_a_link_check_no_more_than_the_limit(settings):
    """The count is taken before the form is checked: 40 posts at once, 20 checked."""
    from concurrent.futures import ThreadPoolExecutor

    from django.db import connection

    from accounts.throttle import LINK_FAILURES, link_form_take

    def post(_):
        try:
            return link_form_take("a-link-hash")
        finally:
            connection.close()

    with ThreadPoolExecutor(4) as pool:
        checked = sum(pool.map(post, range(2 * LINK_FAILURES)))

    assert checked == LINK_FAILURES


@pytest.mark.parametrize(
    ("changes", "focused"),
    [
        ({"password2": "different-Pass-99"}, "id_password1"),
        ({"username": "has space!"}, "id_username"),
    ],
)
def test_a_refused_form_focuses_the_field_in_error(client, changes, focused):
    import re

    _invite, url = invite_create()

    html = client.post(link_path(url), account_form("focus-me") | changes).content.decode()

    autofocused = re.findall(r"<input[^>]*\bautofocus\b[^>]*>", html)
    assert len(autofocused) == 1
    assert f'id="{focused}"' in autofocused[0]


def test_invite_username_taken_in_another_case_between_the_check_and_the_save_is_refused(
    client,
):
    """Two invites redeemed at the same moment as "ANA" and "ana" (two app servers) both
    pass every check before either inserts; the database's index refuses the second,
    and the form says so, not a 500."""
    _invite, url = invite_create()

    def other_request_inserts(sender, instance, **kwargs):  # after the account's check
        User.objects.bulk_create([User(username=instance.username.upper())])

    pre_save.connect(other_request_inserts, sender=User, dispatch_uid="other-request")
    try:
        response = client.post(link_path(url), account_form("ana"))
    finally:
        pre_save.disconnect(sender=User, dispatch_uid="other-request")

    assert response.status_code == 200
    assert "A user with that username already exists." in response.content.decode()
    assert not User.objects.filter(username="ana").exists()
    assert Invite.objects.get().used_at is None


@pytest.mark.parametrize(
    ("taken", "asked", "said"),
    [
        ("Zed", "zed", "A user with that username already exists."),
        ("lucia", "1ucia", "looks the same as one already taken"),
    ],
)
def test_createsuperuser_refuses_a_taken_name_in_one_line(taken, asked, said):
    """`createsuperuser` checks only the exact name: a case variant met the unique index
    as an IntegrityError traceback, and a look-alike was made."""
    UserFactory(username=taken)

    with pytest.raises(CommandError, match=said):
        call_command("createsuperuser", "--noinput", username=asked, email="", stdout=StringIO())

    assert list(User.objects.values_list("username", flat=True)) == [taken]
