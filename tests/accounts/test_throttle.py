"""The login throttle under parallel tries, per address and per account."""

from datetime import timedelta

import pytest
import time_machine
from django.contrib.auth import authenticate, get_user_model
from django.contrib.auth.models import AnonymousUser
from django.test import Client, RequestFactory
from django.utils import timezone

from accounts.models import LoginThrottle
from accounts.throttle import FAILURES_PER_ACCOUNT
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db
User = get_user_model()


def login(client, username, password=PASSWORD, address="127.0.0.1"):
    return client.post("/login/", {"username": username, "password": password}, REMOTE_ADDR=address)


def test_login_parallel_tries_check_at_most_five_passwords(monkeypatch):
    """30 tries that all start before any finishes: each password check starts the
    next try, the way parallel requests overlap while Argon2 runs."""
    UserFactory(username="ana")
    checked = []
    original = User.check_password

    def slow_check(user, raw):
        checked.append(raw)
        if len(tries) < 30:
            try_once()
        return original(user, raw)

    tries = []

    def try_once():
        tries.append(1)
        request = RequestFactory().post("/login/", REMOTE_ADDR="10.0.0.9")
        request.user = AnonymousUser()
        authenticate(request, username="ana", password=f"guess-{len(tries)}")
        if len(tries) < 30:  # refused at once: the next try starts meanwhile
            try_once()

    monkeypatch.setattr(User, "check_password", slow_check)

    try_once()

    assert len(tries) == 30
    assert len(checked) == 5


def test_login_lock_holds_one_address_not_another(client):
    UserFactory(username="ana")
    for _ in range(5):
        login(client, "ana", "wrong", address="203.0.113.7")

    guesser = login(client, "ana", address="203.0.113.7")
    owner = login(client, "ana", address="198.51.100.4")

    assert "Too many failed logins" in guesser.content.decode()
    assert owner.status_code == 302
    assert owner["Location"] == "/"


def test_login_account_locks_for_everyone_after_many_addresses_fail(client):
    UserFactory(username="ana")
    for n in range(FAILURES_PER_ACCOUNT):
        login(client, "ana", "wrong", address=f"198.51.100.{n}")

    response = login(client, "ana", address="192.0.2.1")

    assert FAILURES_PER_ACCOUNT == 50
    assert "Too many failed logins" in response.content.decode()
    assert LoginThrottle.objects.get(username="ana", address="").failures == 50


def test_login_success_clears_the_addresss_failures(client):
    UserFactory(username="ana")
    for _ in range(4):
        login(client, "ana", "wrong")
    login(client, "ana")
    client.post("/logout/")
    for _ in range(4):
        login(client, "ana", "wrong")

    response = login(client, "ana")

    assert response.status_code == 302
    assert LoginThrottle.objects.get(username="ana", address="127.0.0.1").failures == 0
    # The later four come from a browser that logged in to ana: not counted on the account.
    assert LoginThrottle.objects.get(username="ana", address="").failures == 4


def lock_the_account_from_ten_addresses(client, username="ana"):
    for n in range(10):
        for _ in range(5):
            login(client, username, "wrong", address=f"198.51.100.{n}")


def test_login_owner_on_a_known_device_gets_in_while_others_lock_the_account(client):
    UserFactory(username="ana")
    login(client, "ana", address="192.0.2.1")
    client.post("/logout/")
    lock_the_account_from_ten_addresses(Client())

    owner = login(client, "ana", address="192.0.2.77")
    stranger = login(Client(), "ana", address="192.0.2.78")

    assert owner.status_code == 302
    assert "Too many failed logins" in stranger.content.decode()


def test_login_classmate_at_the_same_address_cannot_lock_the_owner_out(client):
    UserFactory(username="ana")
    login(client, "ana", address="192.0.2.1")
    client.post("/logout/")
    classmate = Client()
    for _ in range(8):
        login(classmate, "ana", "wrong", address="192.0.2.1")

    owner = login(client, "ana", address="192.0.2.1")
    stranger = login(Client(), "ana", address="192.0.2.1")

    assert owner.status_code == 302
    assert "Too many failed logins" in stranger.content.decode()


def test_login_owner_on_a_known_device_is_held_by_their_own_failures(client):
    UserFactory(username="ana")
    login(client, "ana", address="192.0.2.1")
    client.post("/logout/")
    for _ in range(5):
        login(client, "ana", "wrong", address="192.0.2.1")

    response = login(client, "ana", address="192.0.2.1")

    assert "Too many failed logins" in response.content.decode()


def test_login_known_device_cookie_names_one_account(client):
    UserFactory(username="ana")
    UserFactory(username="bea")
    login(client, "bea", address="192.0.2.1")
    client.post("/logout/")
    lock_the_account_from_ten_addresses(Client())

    response = login(client, "ana", address="192.0.2.1")

    assert "Too many failed logins" in response.content.decode()


def test_login_known_device_cookie_does_not_name_the_account(client):
    UserFactory(username="anabelle")

    login(client, "anabelle", address="192.0.2.1")

    value = client.cookies["known_device"].value
    assert value
    assert "anabelle" not in value.lower()


def test_login_forged_device_cookie_is_no_exemption(client):
    UserFactory(username="ana")
    lock_the_account_from_ten_addresses(Client())
    client.cookies["known_device"] = "ana"

    response = login(client, "ana", address="192.0.2.1")

    assert "Too many failed logins" in response.content.decode()


def test_login_ipv6_addresses_of_one_64_count_as_one(client):
    UserFactory(username="ana")
    for n in range(5):
        login(client, "ana", "wrong", address=f"2001:db8:1:2::{n + 1:x}")

    guesser = login(client, "ana", address="2001:db8:1:2:ffff::1")
    neighbour = login(Client(), "ana", address="2001:db8:1:3::1")

    assert "Too many failed logins" in guesser.content.decode()
    assert neighbour.status_code == 302
    assert LoginThrottle.objects.get(username="ana", address="2001:db8:1:2::/64").failures == 5


def test_login_back_off_doubles_with_each_failure_after_the_fifth(client):
    UserFactory(username="ana")
    start = timezone.now()
    with time_machine.travel(start, tick=False):
        for _ in range(5):
            login(client, "ana", "wrong")
    waits = []
    moment = start
    for _ in range(6):
        row = LoginThrottle.objects.get(username="ana", address="127.0.0.1")
        waits.append(round((row.locked_until - moment).total_seconds() / 60))
        moment = row.locked_until + timedelta(seconds=1)
        with time_machine.travel(moment, tick=False):
            login(client, "ana", "wrong")

    assert waits == [1, 2, 4, 8, 15, 15]


def test_login_one_address_trying_many_usernames_is_held_before_the_hasher(monkeypatch, client):
    """Spraying passwords over many accounts, or usernames made up to keep the hasher
    busy, from one address: at most FAILURES_PER_ADDRESS_ANY_ACCOUNT tries reach the
    password check (which hashes for unknown usernames too); another address, and the
    owner's own browser, still get in."""
    from django.contrib.auth.backends import ModelBackend

    from accounts.throttle import FAILURES_PER_ADDRESS_ANY_ACCOUNT

    UserFactory(username="ana")
    owner = Client()
    assert login(owner, "ana", address="203.0.113.50").status_code == 302  # her browser
    checked = []

    with monkeypatch.context() as patched:
        patched.setattr(ModelBackend, "authenticate", lambda *a, **k: checked.append(1))
        for n in range(FAILURES_PER_ADDRESS_ANY_ACCOUNT + 10):
            login(client, f"made-up-{n}", "wrong", address="203.0.113.50")
        refused = login(client, "ana", "wrong", address="203.0.113.50")

    assert FAILURES_PER_ADDRESS_ANY_ACCOUNT == 30
    assert len(checked) == 30
    assert "Too many failed logins" in refused.content.decode()
    assert login(Client(), "ana", address="198.51.100.4").status_code == 302
    assert login(owner, "ana", address="203.0.113.50").status_code == 302


def test_login_clients_of_a_proxy_on_this_machine_are_counted_apart(client, settings):
    """gunicorn on 127.0.0.1 behind a proxy on the same host (`make serve` as
    docs/deploying.md sets it up: the proxy adds X-Forwarded-For, no
    DJANGO_TRUSTED_PROXIES): each client counts by its own address. Counted as the
    proxy's 127.0.0.1, 5 failed logins by anyone held an account by name, and 30 over
    made-up usernames held every login but a known device's (red team 26)."""
    settings.TRUSTED_PROXIES = []
    UserFactory(username="ana")

    def via_proxy(browser, username, password, address):
        return browser.post(
            "/login/",
            {"username": username, "password": password},
            REMOTE_ADDR="127.0.0.1",
            HTTP_X_FORWARDED_FOR=address,
        )

    for _ in range(5):
        via_proxy(client, "ana", "wrong", "203.0.113.66")
    for n in range(30):
        via_proxy(client, f"made-up-{n}", "wrong", "198.51.100.1, 203.0.113.66")
    guesser = via_proxy(client, "ana", PASSWORD, "203.0.113.66")
    owner = via_proxy(Client(), "ana", PASSWORD, "198.51.100.7")

    assert "Too many failed logins" in guesser.content.decode()
    assert owner.status_code == 302


def test_login_success_gives_the_address_key_its_try_back(client):
    UserFactory(username="ana")
    login(client, "bob", "wrong", address="203.0.113.60")
    login(client, "ana", address="203.0.113.60")

    assert LoginThrottle.objects.get(username=" *", address="203.0.113.60").failures == 1


def test_the_browser_that_redeemed_an_invite_is_the_accounts_own(client):
    """An account made by a link has never logged in through the form: its browser
    must still be exempt from the account's lock, or anyone could keep a new learner
    (or the first superuser) out from day one."""
    from accounts.services import invite_create
    from tests.accounts.test_links import NEW_PASSWORD, account_form, link_path

    _invite, url = invite_create(note="x")
    client.post(link_path(url), account_form("lina"))
    client.post("/logout/")
    lock_the_account_from_ten_addresses(Client(), username="lina")

    owner = login(client, "lina", NEW_PASSWORD, address="192.0.2.77")
    stranger = login(Client(), "lina", NEW_PASSWORD, address="192.0.2.78")

    assert owner.status_code == 302
    assert "Too many failed logins" in stranger.content.decode()
