"""gunicorn settings for every way of starting the portal under gunicorn.

`gunicorn.conf.py` at the project root imports this module, and gunicorn reads that
file by itself when started from the project folder (`make serve`, the benchmarks,
a container's `gunicorn portal.wsgi`). Command-line options override it.
"""

from gunicorn.glogging import Logger

from portal.log import RedactSecretPaths, redact

wsgi_app = "portal.wsgi"
# Threads let a worker serve keep-alive clients while another request waits on the
# database; a sync worker is held by one connection at a time. Two, not four: threads
# of one worker take turns on the GIL, and one holding SQLite's write lock while it
# waits for its turn stalls every writer (the runs: docs/performance.md).
worker_class = "gthread"
threads = 2
graceful_timeout = 20
# gunicorn 25's control socket defaults to one path per user (~/.gunicorn/gunicorn.ctl),
# so two instances on one machine (two app servers, the soak, serve_bench) would share
# it; nothing here uses `gunicornc`, so there is none.
control_socket_disable = True
# No request header may set the WSGI SCRIPT_NAME or PATH_INFO. gunicorn takes both from
# a proxy it trusts (this machine by default), so a header a proxy passed on named the
# script prefix, which is in the key of every kept piece: one client could fill the
# shared cache with a copy of each page's per prefix (red-team run 15). Served under a
# path: gunicorn's SCRIPT_NAME environment variable, or Django's FORCE_SCRIPT_NAME.
forwarder_headers = ""


class RedactingLogger(Logger):
    """gunicorn's logs without the secret part of setup and invite links: the access
    log (the request line, the Referer of the request that follows) and the error log,
    which quotes a request line it refuses ("Invalid HTTP request line: 'GET /invite/…").
    """

    def __init__(self, cfg):
        super().__init__(cfg)
        self.error_log.addFilter(RedactSecretPaths())

    def atoms(self, resp, req, environ, request_time):
        atoms = super().atoms(resp, req, environ, request_time)
        return {key: redact(value) for key, value in atoms.items()}


logger_class = RedactingLogger
