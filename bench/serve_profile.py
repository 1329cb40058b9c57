"""In-process CPU of the pages serve_bench measures: the WSGI handler called directly,
no gunicorn, no wrk, so a change's cost shows without the machine's noise.

`python bench/serve_profile.py [--requests 400] [--batches 5] [--profile phase|answered|answer]`
prepares a database as serve_bench does (production settings, throwaway SQLite
file, or DATABASE_URL/REDIS_URL from the environment), then prints the thread CPU time
a request of each scenario costs (best and median of the batches). `--profile NAME`
runs cProfile over one batch of that scenario instead and prints the top functions.
`--bare` measures the bare page (bench/bare/) the same way, in its own process.
"""

import argparse
import cProfile
import io
import json
import pstats
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import serve_bench, servers  # noqa: E402


def environ_for(method: str, path: str, cookie: str, csrf: str = "", body: str = "") -> dict:
    data = body.encode()
    environ = {
        "REQUEST_METHOD": method,
        "PATH_INFO": path,
        "QUERY_STRING": "",
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "8000",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1",
        "HTTP_HOST": "127.0.0.1",
        "HTTP_COOKIE": cookie,
        "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(data),
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }
    if method == "POST":
        environ |= {
            "CONTENT_TYPE": "application/x-www-form-urlencoded",
            "CONTENT_LENGTH": str(len(data)),
            "HTTP_X_CSRFTOKEN": csrf,
            "HTTP_HX_REQUEST": "true",
        }
    return environ


def call(application, environ) -> int:
    status = []
    result = application(environ, lambda s, headers, exc_info=None: status.append(s))
    try:
        for _chunk in result:
            pass
    finally:
        close = getattr(result, "close", None)
        if close is not None:
            close()
    return int(status[0][:3])


def batch(application, make_environ, n: int) -> float:
    """Thread CPU seconds per request over `n` requests."""
    start = time.thread_time()
    for at in range(n):
        code = call(application, make_environ(at))
        assert code == 200, code
    return (time.thread_time() - start) / n


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=400)
    parser.add_argument("--batches", type=int, default=5)
    parser.add_argument("--learners", type=int, default=50)
    parser.add_argument("--profile", choices=("phase", "answered", "answer"))
    parser.add_argument("--bare", action="store_true")
    parser.add_argument("--only", choices=("phase", "answered", "answer"), action="append")
    parser.add_argument("--bare-cookies", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.bare_cookies:  # the child measuring the bare page
        bare_child(args)
        return

    workdir = Path(tempfile.mkdtemp(prefix="serve-profile-"))
    try:
        measure(args, workdir)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def measure(args, workdir: Path) -> None:
    env = servers.production_env(workdir)
    users, cookies, answered_cookies, question = serve_bench.prepare(env, args.learners)
    if args.bare:
        cookie_file = workdir / "cookies.json"
        cookie_file.write_text(json.dumps([cookie for cookie, _csrf in cookies]))
        subprocess.run(
            [sys.executable, __file__, "--bare-cookies", str(cookie_file)]
            + [f"--requests={args.requests}", f"--batches={args.batches}"],
            env=env | {"DJANGO_SETTINGS_MODULE": "bench.bare.settings"},
            check=True,
        )
        return
    from django.core.wsgi import get_wsgi_application

    application = get_wsgi_application()
    # Each answer carries a fresh token; all are made before any batch is timed.
    pending = []
    for n in range(50 + args.requests * (args.batches + 1)):
        cookie, csrf = cookies[n % len(users)]
        _t, (method, path, body, _h) = serve_bench.answer_request(
            users[n % len(users)], cookie, csrf, question, choice="AB"[n % 2]
        )
        pending.append(environ_for(method, path, cookie, csrf, body))

    def answer(at: int) -> dict:
        return pending.pop()

    phase = f"/phase/{serve_bench.PHASE}/"
    scenarios = {
        "phase": lambda at: environ_for("GET", phase, cookies[at % len(cookies)][0]),
        "answered": lambda at: environ_for("GET", phase, answered_cookies[at % len(cookies)][0]),
        "answer": answer,
    }
    if args.only:
        scenarios = {name: scenarios[name] for name in args.only}
    for make in scenarios.values():  # warm: imports, templates, caches
        batch(application, make, 50)
    if args.profile:
        profiler = cProfile.Profile()
        profiler.runcall(batch, application, scenarios[args.profile], args.requests)
        stats = pstats.Stats(profiler)
        stats.sort_stats("tottime").print_stats(30)
        stats.sort_stats("cumulative").print_stats(250)
        return
    for name, make in scenarios.items():
        times = [batch(application, make, args.requests) * 1000 for _ in range(args.batches)]
        print(f"{name:<10} best {min(times):.3f} ms  median {statistics.median(times):.3f} ms")


def bare_child(args) -> None:
    from django.core.wsgi import get_wsgi_application

    application = get_wsgi_application()
    cookies = json.loads(Path(args.bare_cookies).read_text())

    def make(at):
        return environ_for("GET", "/bare/", cookies[at % len(cookies)])

    batch(application, make, 50)
    times = [batch(application, make, args.requests) * 1000 for _ in range(args.batches)]
    print(f"{'bare':<10} best {min(times):.3f} ms  median {statistics.median(times):.3f} ms")


if __name__ == "__main__":
    main()
