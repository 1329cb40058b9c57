"""Write transactions queued on a file lock when the database is an SQLite file.

Django's SQLite backend, with `transaction_mode="IMMEDIATE"`, takes SQLite's write
lock at BEGIN; a writer that finds it taken waits in SQLite's busy handler, which
sleeps in steps of up to 100 ms and retries, so under concurrent answers the lock sits
free while writers sleep. `write_transaction()` first takes an exclusive flock on
`<database>.writelock`: waiters block in the kernel and the next one wakes the moment
the lock is released, across threads and processes (the operating system releases the
lock of a killed process). On another database, an in-memory one (the tests) or inside
a transaction already open, it is `transaction.atomic()` alone.
docs/data-layer.md says what it buys.
"""

import fcntl
import os
import threading
from contextlib import contextmanager

from django.db import DEFAULT_DB_ALIAS, connections, router, transaction

_open = threading.local()  # per thread: {(process id, lock file): descriptor}


def _lock_file(using: str) -> str | None:
    connection = connections[using]
    name = str(connection.settings_dict["NAME"])
    if connection.vendor != "sqlite" or name == ":memory:" or "mode=memory" in name:
        return None
    return f"{name}.writelock"


def _descriptor(path: str) -> int:
    """This thread's own open file: flock is held per open file, so threads sharing
    one would not exclude each other (nor a worker forked with its parent's)."""
    descriptors = getattr(_open, "descriptors", None)
    if descriptors is None:
        descriptors = _open.descriptors = {}
    key = (os.getpid(), path)
    if key not in descriptors:
        descriptors[key] = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    return descriptors[key]


@contextmanager
def write_transaction(model=None):
    """`transaction.atomic()` on the database the router writes `model` to, its
    writers queued on a file lock where that database is an SQLite file."""
    using = router.db_for_write(model) if model is not None else DEFAULT_DB_ALIAS
    path = _lock_file(using)
    if path is None or connections[using].in_atomic_block:
        with transaction.atomic(using=using):
            yield
        return
    descriptor = _descriptor(path)
    fcntl.flock(descriptor, fcntl.LOCK_EX)
    try:
        with transaction.atomic(using=using):
            yield
    finally:
        fcntl.flock(descriptor, fcntl.LOCK_UN)
