"""The processes the serving benchmarks run: gunicorn servers on free ports, the
pg-redis topology's throwaway PostgreSQL and Redis, production settings, and the CPU a
server has used (bench/serve_bench.py, soak.py and startup_bench.py share them)."""

import http.client
import os
import secrets
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
GUNICORN_EXTRA = os.environ.get("GUNICORN_EXTRA", "").split()


# The ports this machine gives benchmarks; BENCH_PORTS overrides ("8140-8149").
PORT_RANGE = os.environ.get("BENCH_PORTS", "8140-8149")


def free_port() -> int:
    """The first port of PORT_RANGE nobody listens on."""
    first, last = (int(p) for p in PORT_RANGE.split("-"))
    for port in range(first, last + 1):
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise SystemExit(f"no free port in {PORT_RANGE}")


def topology_env() -> dict:
    """Where pg-redis's throwaway servers live: a port and state files of their own, so
    the bench runs beside CI's (BENCH_PG_PORT, BENCH_PG_STATE, BENCH_REDIS_STATE move
    them, for two benches at once)."""
    return os.environ | {
        "PG_PORT": os.environ.get("BENCH_PG_PORT", "54349"),
        "PG_STATE": os.environ.get("BENCH_PG_STATE", "/tmp/portal-serve-bench-pg.dir"),
        "REDIS_STATE": os.environ.get("BENCH_REDIS_STATE", "/tmp/portal-serve-bench-redis.dir"),
    }


def topology_start(topology: str) -> tuple[dict, list[str]]:
    """The environment `topology` adds (DATABASE_URL, REDIS_URL) and the scripts to
    stop afterwards: nothing for the embedded default."""
    if topology == "sqlite":
        return {}, []
    found, started = {}, []
    try:
        for script, variable in (("postgres.sh", "DATABASE_URL"), ("redis.sh", "REDIS_URL")):
            command = str(ROOT / ".ci" / script)
            started.insert(0, command)  # stopping what never started is a no-op
            out = subprocess.run(
                [command, "start"], env=topology_env(), check=True, capture_output=True, text=True
            )
            found[variable] = out.stdout.strip()
    except BaseException:
        topology_stop(started)
        raise
    return found, started


def topology_stop(started: list[str]) -> None:
    for command in started:
        subprocess.run([command, "stop"], env=topology_env(), check=False)


def production_env(workdir: Path) -> dict:
    env = os.environ | {
        "DJANGO_SETTINGS_MODULE": "portal.settings.production",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "DJANGO_SECURE_SSL_REDIRECT": "false",
        "DJANGO_SECURE_COOKIES": "false",
        # A few hundred accounts answer for a whole class here: no per-learner pace.
        "DJANGO_ANSWERS_PER_MINUTE": "1000000",
    }
    env.setdefault("DATABASE_URL", f"sqlite:///{workdir / 'bench.sqlite3'}")
    return env


def start_server(env: dict, workers: int, extra=()) -> tuple[subprocess.Popen, int]:
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
            *GUNICORN_EXTRA,
            *extra,
        ],
        cwd=ROOT,  # gunicorn.conf.py: worker class, threads, access log
        env=env,
    )
    if not wait_for_health(port, timeout=30):
        server.terminate()
        raise SystemExit(f"gunicorn on port {port} did not answer /healthz")
    return server, port


def wait_for_health(port: int, timeout: float, path: str = "/healthz") -> bool:
    """Poll `path` on 127.0.0.1 until it answers below 500 or `timeout` seconds pass."""
    deadline = time.perf_counter() + timeout
    while time.perf_counter() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
            conn.request("GET", path)
            if conn.getresponse().status < 500:
                return True
        except OSError:
            time.sleep(0.05)
    return False


def server_cpu_seconds(server: subprocess.Popen) -> float:
    """CPU time the server's processes (master and workers) have used so far. Unlike
    req/s, it hardly moves when other programs load the machine."""
    pids = [server.pid] + [
        int(pid)
        for pid in subprocess.run(
            ["pgrep", "-P", str(server.pid)], capture_output=True, text=True
        ).stdout.split()
    ]
    ticks = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        ticks += int(fields[11]) + int(fields[12])  # utime, stime
    return ticks / os.sysconf("SC_CLK_TCK")
