"""Benchmark: our pages against a bare Django page, served by gunicorn, measured by wrk.

Run with `make bench` or `python bench/serve_bench.py [--topology sqlite|pg-redis]
[--seconds 6] [--rounds 3] [--connections 16]`.
The topology is the embedded default (`sqlite`: a throwaway SQLite file, or
DATABASE_URL, each process its own cache) or `pg-redis`: a throwaway PostgreSQL cluster
and Redis (`.ci/postgres.sh`, `.ci/redis.sh`, stopped at the end), the deployment past
one machine. It prepares the database: migrations, the quizzes, static files, and
learners with live sessions made directly. Then it starts two gunicorn servers side by
side with the same worker settings (gunicorn.conf.py, `--workers`):

- the bare site (`bench/bare/`): stock middleware, one login-required view rendering a
  one-line template, on the portal's database, cache and session settings: the ceiling
  on the same topology;
- the portal with production settings.

wrk (`apt-get install wrk`) first warms each scenario up for `--warmup` seconds
(unmeasured: the workers' first requests import views and compile templates), then
runs `--rounds` rounds of the three scenarios back to back, each for `--seconds` with
`--connections` keep-alive connections through `bench/serve.lua`, which sends prepared
requests: GETs cycle over the learners' cookies; answers are htmx POSTs, each with its
own fresh submission token, each sent once. The answer runs then check that every 200
stored exactly one attempt. Client and servers share this machine's cores, so compare
ratios rather than absolute figures: each round's against its own bare run, and the
median over the rounds. Traffic goes to 127.0.0.1 only and every run ends by itself.

GUNICORN_EXTRA adds gunicorn options to both servers (e.g. "--worker-class sync").
"""

import argparse
import os
import re
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
PY = sys.executable
from bench.servers import (  # noqa: E402
    GUNICORN_EXTRA,
    production_env,
    server_cpu_seconds,
    start_server,
    topology_start,
    topology_stop,
)

# The phase page measured, and the question the answer runs post to: in another phase,
# so the answers leave the measured page as it was.
PHASE, QUESTION = 10, "q-19-01"
WRK_THREADS = 2


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


# Each learner's login's form key (progress.tokens): the submission tokens the bench
# makes must be bound to the session the requests carry, as the pages' tokens are.
FORM_KEYS: dict[int, str] = {}


def session_cookie(user, backend: str, store_class) -> str:
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY

    from progress.tokens import SESSION_KEY as FORM_KEY

    store = store_class()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = backend
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store[FORM_KEY] = FORM_KEYS.setdefault(user.pk, secrets.token_hex(16))
    store.create()
    return store.session_key


def prepare(env: dict, learners: int, *, answered_too: bool = True):
    """Migrate, import, collect static; make two sets of `learners` users with live
    sessions: new learners, and (with `answered_too`) learners who answered every
    question of phase PHASE once. Returns (new users, their [(cookie header, csrf
    token)], the answered learners' cookies, question QUESTION); each cookie header
    carries a portal session and a bare-site session (database sessions)."""
    os.environ.update(env)
    manage = [PY, str(ROOT / "manage.py")]
    subprocess.run([*manage, "migrate", "-v0"], check=True, env=env)
    subprocess.run([*manage, "import_quizzes", "-v0"], check=True, env=env)
    subprocess.run([*manage, "collectstatic", "--noinput", "-v0"], check=True, env=env)

    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.contrib.sessions.backends.db import SessionStore as DatabaseStore
    from django.db import connection
    from django.utils.crypto import get_random_string
    from django.utils.module_loading import import_string

    from progress.services import attempt_record
    from quizzes.models import Question

    User = get_user_model()
    portal_store = import_string(settings.SESSION_ENGINE + ".SessionStore")

    def learners_with_cookies(prefix: str):
        User.objects.bulk_create(
            [User(username=f"{prefix}{n:04d}", password="!") for n in range(learners)],
            ignore_conflicts=True,
        )
        users = list(User.objects.filter(username__startswith=prefix).order_by("id"))
        cookies = []
        for user in users[:learners]:
            ours = session_cookie(user, settings.AUTHENTICATION_BACKENDS[0], portal_store)
            bare = session_cookie(user, "django.contrib.auth.backends.ModelBackend", DatabaseStore)
            # A CSRF secret as Django makes one: 32 letters and digits.
            csrf = get_random_string(32)
            cookies.append((f"sessionid={ours}; baresession={bare}; csrftoken={csrf}", csrf))
        return users[:learners], cookies

    users, cookies = learners_with_cookies("bench")
    answered, answered_cookies = learners_with_cookies("answered") if answered_too else ([], [])
    phase_questions = Question.objects.active().filter(phase__number=PHASE)
    for n, user in enumerate(answered):
        for question in phase_questions.select_related("current_revision"):
            revision = question.current_revision
            keys = [option["key"] for option in revision.options][n % 2 : n % 2 + 1]
            attempt_record(
                learner=user,
                revision=revision,
                nonce=secrets.token_hex(16),
                answer={"text": "residual stream"} if revision.is_free else {"keys": keys},
                language="en",
            )
    question = Question.objects.select_related("current_revision").get(code=QUESTION)
    connection.close()
    return users, cookies, answered_cookies, question


def answer_request(user, cookie, csrf, question, token=None, choice="B"):
    from progress.tokens import SESSION_KEY as FORM_KEY
    from progress.tokens import token_issue

    token = token or token_issue(
        session={FORM_KEY: FORM_KEYS[user.pk]},
        user=user,
        question_id=question.pk,
        revision_id=question.current_revision_id,
    )
    body = urlencode({"token": token, "choice": choice})
    headers = {
        "Cookie": cookie,
        "X-CSRFToken": csrf,
        "HX-Request": "true",
        "Content-Type": "application/x-www-form-urlencoded",
    }
    return token, ("POST", f"/question/{question.code}/answer/", body, headers)


def wrk_run(port: int, lines: list[str], *, once: bool, connections: int, seconds: float, workdir):
    """One wrk run over the prepared request lines; returns its figures."""
    requests_file = Path(workdir) / f"requests-{port}-{int(once)}.tsv"
    requests_file.write_text("\n".join(lines) + "\n")
    result = subprocess.run(
        [
            shutil.which("wrk") or "wrk",
            f"-t{WRK_THREADS}",
            f"-c{connections}",
            f"-d{round(seconds)}s",
            "--timeout",
            "10s",
            "-s",
            str(ROOT / "bench" / "serve.lua"),
            f"http://127.0.0.1:{port}",
        ],
        env=os.environ
        | {
            "REQUESTS_FILE": str(requests_file),
            "ONCE": "1" if once else "0",
            "THREADS": str(WRK_THREADS),
        },
        capture_output=True,
        text=True,
        timeout=seconds + 60,
    )
    if result.returncode != 0:
        raise SystemExit(f"wrk failed: {result.stderr or result.stdout}")
    match = re.search(r"RESULT (.*)", result.stdout)
    figures = {key: int(value) for key, value in (p.split("=") for p in match.group(1).split())}
    seconds_taken = figures["duration_us"] / 1e6
    return {
        "rps": figures["requests"] / seconds_taken,
        "requests": figures["requests"],
        "p50": figures["p50_us"] / 1000,
        "p99": figures["p99_us"] / 1000,
        "errors": figures["status_errors"] + figures["socket_errors"],
    }


def measured(server, port, lines, *, once, **run):
    before = server_cpu_seconds(server)
    figures = wrk_run(port, lines, once=once, **run)
    figures["cpu_ms"] = (server_cpu_seconds(server) - before) * 1000 / max(1, figures["requests"])
    return figures


def line(method, path, cookie, csrf="-", body="-") -> str:
    return "\t".join([method, path, cookie, csrf, body])


SCENARIOS = (
    "bare page GET",
    "phase page GET (5 questions)",
    "same, all 5 answered",
    "answer POST (htmx, new token)",
)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=6, help="per scenario and round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--warmup", type=float, default=2, help="seconds per scenario, unmeasured")
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--learners", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--topology", choices=("sqlite", "pg-redis"), default="sqlite")
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        raise SystemExit("serve_bench needs wrk: apt-get install wrk")

    services, started = topology_start(args.topology)
    try:
        serve(args, services)
    finally:
        topology_stop(started)


def serve(args, services: dict) -> None:
    workdir = Path(tempfile.mkdtemp(prefix="serve-bench-"))
    os.environ.update(services)
    env = production_env(workdir)
    users, cookies, answered_cookies, question = prepare(env, args.learners)
    from django.conf import settings
    from django.db import connection

    from progress.models import Attempt

    bare_env = env | {"DJANGO_SETTINGS_MODULE": "bench.bare.settings"}
    bare_server, bare_port = start_server(bare_env, args.workers)
    server, port = start_server(env, args.workers)
    # The bare site reads its own session cookie, so one Cookie header serves both.
    bare_lines = [line("GET", "/bare/", cookie) for cookie, _csrf in cookies]
    phase_lines = [line("GET", f"/phase/{PHASE}/", cookie) for cookie, _csrf in cookies]
    answered_lines = [line("GET", f"/phase/{PHASE}/", c) for c, _csrf in answered_cookies]

    def answers(seconds: float) -> list[str]:
        """Enough fresh answers that a run never runs out: more than the server takes."""
        lines = []
        for n in range(int(seconds * 800)):
            at = n % len(users)
            cookie, csrf = cookies[at]
            _token, (method, path, body, _headers) = answer_request(
                users[at], cookie, csrf, question, choice="AB"[n % 2]
            )
            lines.append(line(method, path, cookie, csrf, body))
        return lines

    rounds, stored, completed = [], 0, 0
    try:
        # Warm-up, not measured: each worker imports its views, compiles its templates
        # and fills its caches on its first requests, as a server does once a deploy.
        if args.warmup > 0:
            warm = {"connections": args.connections, "seconds": args.warmup, "workdir": workdir}
            wrk_run(bare_port, bare_lines, once=False, **warm)
            wrk_run(port, phase_lines, once=False, **warm)
            wrk_run(port, answered_lines, once=False, **warm)
            wrk_run(port, answers(args.warmup), once=True, **warm)
        # Rounds of the three scenarios back to back: each round's ratios are taken
        # against its own bare run, so load from elsewhere moves both sides alike.
        run = {"connections": args.connections, "seconds": args.seconds, "workdir": workdir}
        for _ in range(args.rounds):
            answer_lines = answers(args.seconds)
            before = Attempt.objects.count()
            rounds.append(
                [
                    measured(bare_server, bare_port, bare_lines, once=False, **run),
                    measured(server, port, phase_lines, once=False, **run),
                    measured(server, port, answered_lines, once=False, **run),
                    measured(server, port, answer_lines, once=True, **run),
                ]
            )
            stored += Attempt.objects.count() - before
            completed += rounds[-1][3]["requests"]
    finally:
        for process in (server, bare_server):
            process.terminate()
            process.wait(timeout=30)
        shutil.rmtree(workdir, ignore_errors=True)

    worker_class = "sync" if "sync" in GUNICORN_EXTRA else "gthread (gunicorn.conf.py)"
    print(
        f"wrk -t{WRK_THREADS} -c{args.connections} -d{args.seconds:.0f}s × {args.rounds} rounds "
        f"(+{args.warmup:.0f}s warm-up); gunicorn {args.workers} workers, {worker_class}; "
        f"{args.topology}: {connection.vendor}, cache {settings.CACHES['default']['BACKEND']}; "
        f"sessions: {settings.SESSION_ENGINE}; {args.learners} learners"
    )
    header = (
        f"{'scenario':<30} {'req/s':>6} {'of bare':>8} {'p50 ms':>7} {'p99 ms':>7} "
        f"{'errors':>6} {'CPU ms/req':>10} {'of bare':>8}"
    )
    for number, figures in enumerate(rounds, 1):
        print(f"round {number}")
        print(header)
        ceiling, ceiling_cpu = figures[0]["rps"], figures[0]["cpu_ms"]
        for name, r in zip(SCENARIOS, figures, strict=True):
            print(
                f"{name:<30} {r['rps']:6.0f} {r['rps'] / ceiling:8.0%} {r['p50']:7.1f} "
                f"{r['p99']:7.1f} {r['errors']:6d} {r['cpu_ms']:10.2f} "
                f"{ceiling_cpu / r['cpu_ms']:8.0%}"
            )
    print(f"median of {len(rounds)} rounds (each ratio against its own round's bare page)")
    print(f"{'scenario':<30} {'of bare':>8} {'p99 ms':>7} {'CPU of bare':>12}")
    for at, name in enumerate(SCENARIOS):
        share = statistics.median(f[at]["rps"] / f[0]["rps"] for f in rounds)
        p99 = statistics.median(f[at]["p99"] for f in rounds)
        cpu = statistics.median(f[0]["cpu_ms"] / f[at]["cpu_ms"] for f in rounds)
        print(f"{name:<30} {share:8.0%} {p99:7.1f} {cpu:12.0%}")
    print(
        f"attempts stored by the answer runs: {stored}, answers completed: {completed}"
        " (those still in flight when wrk stops are stored too)"
    )
    print("targets: phase page >= 60 % and answer >= 40 % of the bare page; p99 < 100 ms")
    print("(CPU 'of bare': the bare page's server CPU per request over this one's, the")
    print(" throughput ratio a server with the cores to itself would show)")


if __name__ == "__main__":
    main()
