"""portal.sessions: Django's database sessions with the read written once in SQL; it
must load exactly what the stock store loads, and nothing expired."""

from datetime import timedelta

import pytest
from django.contrib.sessions.backends import db
from django.contrib.sessions.models import Session
from django.utils import timezone

from portal.sessions import SessionStore

pytestmark = pytest.mark.django_db


def _saved(data: dict) -> str:
    store = SessionStore()
    store.update(data)
    store.create()
    return store.session_key


def test_a_live_session_loads_as_the_stock_store_loads_it():
    key = _saved({"_auth_user_id": "7", "lang": "es", "n": [1, 2]})

    ours, stock = SessionStore(key), db.SessionStore(key)

    assert ours.load() == stock.load() == {"_auth_user_id": "7", "lang": "es", "n": [1, 2]}
    assert ours.session_key == key


@pytest.mark.parametrize("known", [True, False])
def test_an_expired_or_unknown_session_loads_empty_and_drops_its_key(known):
    key = _saved({"_auth_user_id": "7"}) if known else "x" * 32
    Session.objects.filter(session_key=key).update(
        expire_date=timezone.now() - timedelta(seconds=1)
    )

    ours, stock = SessionStore(key), db.SessionStore(key)

    assert ours.load() == stock.load() == {}
    assert ours.session_key is None and stock.session_key is None


def test_a_session_a_second_from_expiry_still_loads():
    key = _saved({"k": 1})
    Session.objects.filter(session_key=key).update(
        expire_date=timezone.now() + timedelta(seconds=1)
    )

    assert SessionStore(key).load() == {"k": 1}
