"""The serving bench's bare site runs on the portal's database, cache and session
settings, so a ratio to it compares pages on one topology, not connection handling."""

import importlib
import sys

from bench import servers


def test_the_bare_site_keeps_connections_and_caches_as_the_portal_does(monkeypatch):
    monkeypatch.setenv("DJANGO_SECRET_KEY", "bench")
    monkeypatch.delitem(sys.modules, "bench.bare.settings", raising=False)
    bare = importlib.import_module("bench.bare.settings")
    base = importlib.import_module("portal.settings.base")

    assert bare.DATABASES == base.DATABASES
    assert bare.DATABASES["default"]["CONN_MAX_AGE"] == 60
    assert bare.DATABASES["default"]["CONN_HEALTH_CHECKS"] is True
    assert (bare.CACHES, bare.SESSION_ENGINE) == (base.CACHES, base.SESSION_ENGINE)
    # With REDIS_URL, portal.sessions reads the sessions' own alias, not the default one.
    assert getattr(bare, "SESSION_CACHE_ALIAS", "default") == base.SESSION_CACHE_ALIAS


def test_the_embedded_topology_starts_nothing():
    assert servers.topology_start("sqlite") == ({}, [])
