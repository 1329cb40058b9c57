"""Benchmark: our pages against a bare Django view, served by gunicorn as in production.

Run with `make bench` or `python bench/serve_bench.py [--seconds 10] [--clients 16]`.
It starts gunicorn (production settings, 2 × CPUs + 1 workers) on a throwaway SQLite
file (or DATABASE_URL), logs in many learners by making their sessions directly, and
for each scenario runs a fixed number of concurrent keep-alive clients for a fixed time:

- the ceiling: /ping/, login required, a one-line template;
- a phase page (GET), spread over the learners;
- an answer submission (HTMX POST with a fresh submission token each time: grading,
  the attempt, its standing and review card are written), spread over the learners.

The load generator is ours (threads over http.client) rather than wrk or oha because
each request needs its learner's session, a CSRF token and, for answers, a new signed
submission token; the same generator measures the bare view, so the ratios compare like
with like. Client and server share this machine's cores, so absolute figures are lower
bounds. Traffic goes to 127.0.0.1 only and every run stops by itself.
GUNICORN_EXTRA adds gunicorn options (e.g. "--worker-class gthread --threads 4", which
measured no better here than the default sync workers).
"""

import argparse
import http.client
import os
import secrets
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
PY = sys.executable
GUNICORN_EXTRA = os.environ.get("GUNICORN_EXTRA", "").split()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


class Scenario:
    def __init__(self, name, make_request):
        self.name = name
        self.make_request = make_request  # (client_index, n) -> (method, path, body, headers)


def run(port, scenario, clients, seconds):
    latencies, errors, lock = [], [0], threading.Lock()
    deadline = time.perf_counter() + seconds

    def worker(index):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        local, n = [], 0
        while time.perf_counter() < deadline:
            method, path, body, headers = scenario.make_request(index, n)
            n += 1
            start = time.perf_counter()
            try:
                conn.request(method, path, body=body, headers=headers)
                response = conn.getresponse()
                response.read()
                ok = response.status < 400
            except (OSError, http.client.HTTPException):
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                ok = False
            local.append(time.perf_counter() - start)
            if not ok:
                with lock:
                    errors[0] += 1
        with lock:
            latencies.extend(local)
        conn.close()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(clients)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started
    return {
        "rps": len(latencies) / elapsed,
        "p50": percentile(latencies, 0.50) * 1000,
        "p99": percentile(latencies, 0.99) * 1000,
        "requests": len(latencies),
        "errors": errors[0],
    }


def production_env(workdir: Path) -> dict:
    env = os.environ | {
        "DJANGO_SETTINGS_MODULE": "portal.settings.production",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "DJANGO_SECURE_SSL_REDIRECT": "false",
        "DJANGO_SECURE_COOKIES": "false",
    }
    env.setdefault("DATABASE_URL", f"sqlite:///{workdir / 'bench.sqlite3'}")
    return env


def prepare(env: dict, learners: int):
    """Migrate, import, collect static; make `learners` users with live sessions.
    Returns (users, [(cookie header, csrf token)], question q-10-01)."""
    os.environ.update(env)
    manage = [PY, str(ROOT / "manage.py")]
    subprocess.run([*manage, "migrate", "-v0"], check=True, env=env)
    subprocess.run([*manage, "import_quizzes", "-v0"], check=True, env=env)
    subprocess.run([*manage, "collectstatic", "--noinput", "-v0"], check=True, env=env)

    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import (
        BACKEND_SESSION_KEY,
        HASH_SESSION_KEY,
        SESSION_KEY,
        get_user_model,
    )
    from django.contrib.sessions.backends.db import SessionStore
    from django.db import connection
    from django.middleware.csrf import _get_new_csrf_string

    from quizzes.models import Question

    User = get_user_model()
    User.objects.bulk_create(
        [User(username=f"bench{n:04d}", password="!") for n in range(learners)],
        ignore_conflicts=True,
    )
    users = list(User.objects.filter(username__startswith="bench").order_by("id"))[:learners]
    cookies = []
    for user in users:
        store = SessionStore()
        store[SESSION_KEY] = str(user.pk)
        store[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
        store[HASH_SESSION_KEY] = user.get_session_auth_hash()
        store.create()
        csrf = _get_new_csrf_string()
        cookies.append((f"sessionid={store.session_key}; csrftoken={csrf}", csrf))
    question = Question.objects.select_related("current_revision").get(code="q-10-01")
    connection.close()
    return users, cookies, question


def start_server(env: dict, workers: int) -> tuple[subprocess.Popen, int]:
    port = free_port()
    server = subprocess.Popen(
        [
            str(Path(PY).parent / "gunicorn"),
            "portal.wsgi",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            str(workers),
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
    )
    wait_for_health(port, timeout=20)
    return server, port


def wait_for_health(port: int, timeout: float) -> bool:
    """Poll /healthz on 127.0.0.1 until it answers 200 or `timeout` seconds pass."""
    deadline = time.perf_counter() + timeout
    while time.perf_counter() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
            conn.request("GET", "/healthz")
            if conn.getresponse().status == 200:
                return True
        except OSError:
            time.sleep(0.05)
    return False


def answer_request(user, cookie, csrf, revision_id, token=None, choice="B"):
    from progress.tokens import token_issue

    token = token or token_issue(learner_id=user.pk, revision_id=revision_id)
    body = urlencode({"token": token, "choice": choice})
    headers = {
        "Cookie": cookie,
        "X-CSRFToken": csrf,
        "HX-Request": "true",
        "Content-Type": "application/x-www-form-urlencoded",
    }
    return token, ("POST", "/question/q-10-01/answer/", body, headers)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--learners", type=int, default=200)
    parser.add_argument("--workers", type=int, default=(os.cpu_count() or 1) * 2 + 1)
    args = parser.parse_args()

    env = production_env(Path(tempfile.mkdtemp(prefix="serve-bench-")))
    users, cookies, question = prepare(env, args.learners)
    from django.db import connection

    from progress.models import Attempt

    server, port = start_server(env, args.workers)
    try:

        def learner(index, n):
            at = (index * 7919 + n) % len(users)
            return cookies[at], users[at]

        def ping(index, n):
            (cookie, _csrf), _user = learner(index, n)
            return "GET", "/ping/", None, {"Cookie": cookie}

        def phase(index, n):
            (cookie, _csrf), _user = learner(index, n)
            return "GET", "/phase/10/", None, {"Cookie": cookie}

        def submit(index, n):
            (cookie, csrf), user = learner(index, n)
            return answer_request(
                user, cookie, csrf, question.current_revision_id, choice="B" if n % 2 else "A"
            )[1]

        before = Attempt.objects.count()
        rows = []
        for scenario in (
            Scenario("bare view (ceiling)", ping),
            Scenario("phase page GET", phase),
            Scenario("answer POST (HTMX)", submit),
        ):
            rows.append((scenario.name, run(port, scenario, args.clients, args.seconds)))
        stored = Attempt.objects.count() - before
    finally:
        server.terminate()
        server.wait(timeout=30)

    ceiling = rows[0][1]["rps"]
    print(
        f"gunicorn, {args.workers} workers, {connection.vendor}, {args.clients} clients, "
        f"{args.seconds:.0f} s each, {args.learners} learners"
    )
    print(f"{'scenario':<24} {'req/s':>8} {'ratio':>6} {'p50 ms':>7} {'p99 ms':>7} {'errors':>6}")
    for name, r in rows:
        print(
            f"{name:<24} {r['rps']:8.0f} {r['rps'] / ceiling:6.0%} {r['p50']:7.1f} "
            f"{r['p99']:7.1f} {r['errors']:6d}"
        )
    print(f"attempts stored during the answer run: {stored} (requests: {rows[2][1]['requests']})")
    print("targets: phase page >= 60 % and answer >= 40 % of the ceiling; p99 < 100 ms")


if __name__ == "__main__":
    main()
