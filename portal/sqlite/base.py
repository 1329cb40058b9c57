"""Django's SQLite backend, with write transactions queued on a file lock.

Writers take SQLite's write lock at BEGIN IMMEDIATE; a writer that finds it taken
waits in SQLite's busy handler, which sleeps in steps of up to 100 ms and retries, so
under concurrent answers the lock sits free while writers sleep (answer p99 near 1 s
at 16 connections). Here each write transaction first takes an exclusive flock on
`<database>.writelock`: waiters block in the kernel and the next one wakes the moment
the lock is released, across threads and processes. The operating system releases the
lock of a killed process. In-memory databases (the tests) skip it.
"""

import fcntl
import os

from django.db.backends.sqlite3 import base


class DatabaseWrapper(base.DatabaseWrapper):
    _write_lock = None  # this connection's own descriptor: flock is per open file

    def _start_transaction_under_autocommit(self):
        locking = self.transaction_mode == "IMMEDIATE" and not self.is_in_memory_db()
        if locking:
            if self._write_lock is None:
                path = f"{self.settings_dict['NAME']}.writelock"
                self._write_lock = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
            fcntl.flock(self._write_lock, fcntl.LOCK_EX)
        try:
            super()._start_transaction_under_autocommit()
        except BaseException:
            self._write_unlock()
            raise

    def _write_unlock(self):
        if self._write_lock is not None:
            fcntl.flock(self._write_lock, fcntl.LOCK_UN)

    def _commit(self):
        try:
            return super()._commit()
        finally:
            self._write_unlock()

    def _rollback(self):
        try:
            return super()._rollback()
        finally:
            self._write_unlock()

    def _close(self):
        try:
            return super()._close()
        finally:
            if self._write_lock is not None:
                os.close(self._write_lock)  # releases the lock too
                self._write_lock = None
