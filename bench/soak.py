"""Soak: many learners answering at once against two app servers, a worker of each
killed mid-run.

`make soak` runs it on SQLite and on a throwaway PostgreSQL cluster. Two gunicorn
instances (`--servers`, on their own ports, one database) serve the learners, learner
i talking to server i mod 2, as two machines behind a proxy would. Each simulated
learner posts answers in a loop, each with a fresh submission token; a submission
without an acknowledgement (connection dropped, timeout, 5xx) is retried with the same
token, up to 3 times, on the other server (a proxy's retry). A third of the way
through, one worker of each server gets SIGKILL.
Afterwards the database is compared with what the clients saw:

- stored: attempts in the database; acknowledged: submissions answered 200;
- lost: acknowledged submissions with no stored attempt;
- duplicated: tokens stored more than once (the unique constraint forbids it).

Prints one line per run and exits non-zero on any loss, duplicate or 5xx. Traffic goes
to 127.0.0.1 only; the run is bounded by --seconds.
"""

import argparse
import http.client
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.serve_bench import answer_request, percentile, prepare  # noqa: E402
from bench.servers import production_env, start_server  # noqa: E402

RETRIES = 3


def worker_pids(master: int) -> list[int]:
    out = subprocess.run(["pgrep", "-P", str(master)], capture_output=True, text=True)
    return [int(pid) for pid in out.stdout.split()]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--servers", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2, help="per server")
    parser.add_argument("--label", default=None)
    args = parser.parse_args()

    env = production_env(Path(tempfile.mkdtemp(prefix="soak-")))
    users, cookies, _answered, question = prepare(env, args.clients, answered_too=False)
    from django.db import connection

    from progress.models import Attempt
    from progress.tokens import token_read

    servers = [start_server(env, args.workers) for _ in range(args.servers)]
    ports = [port for _server, port in servers]
    lock = threading.Lock()
    submitted, acknowledged, server_errors = [], [], [0]
    latencies: list[float] = []
    deadline = time.perf_counter() + args.seconds

    def client(index: int) -> None:
        user, (cookie, csrf) = users[index], cookies[index]
        home = index % len(ports)
        conn = http.client.HTTPConnection("127.0.0.1", ports[home], timeout=20)
        n = 0
        while time.perf_counter() < deadline:
            n += 1
            token, request = answer_request(user, cookie, csrf, question, choice="AB"[n % 2])
            token = token_read(token).nonce  # what the attempt stores
            with lock:
                submitted.append(token)
            for attempt in range(1 + RETRIES):
                start = time.perf_counter()
                try:
                    conn.request(*request[:2], body=request[2], headers=request[3])
                    response = conn.getresponse()
                    response.read()
                    status = response.status
                except (OSError, http.client.HTTPException):
                    conn.close()
                    # Retried on the next server, as a proxy fails over.
                    port = ports[(home + attempt + 1) % len(ports)]
                    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
                    status = None
                elapsed = time.perf_counter() - start
                with lock:
                    latencies.append(elapsed)
                    if status is not None and status >= 500:
                        server_errors[0] += 1
                if status == 200:
                    with lock:
                        acknowledged.append(token)
                    break
                time.sleep(0.2)
        conn.close()

    def assassin() -> None:
        time.sleep(args.seconds / 3)
        for server, port in servers:
            pids = worker_pids(server.pid)
            if pids:
                os.kill(pids[0], signal.SIGKILL)
                print(f"killed worker {pids[0]} of the server on {port}", file=sys.stderr)

    threads = [threading.Thread(target=client, args=(i,)) for i in range(args.clients)]
    threads.append(threading.Thread(target=assassin))
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        for server, _port in servers:
            server.send_signal(signal.SIGTERM)
        for server, _port in servers:
            server.wait(timeout=60)

    mine = Attempt.objects.filter(learner__in=users)
    stored_tokens = list(mine.values_list("token", flat=True))
    counts = Counter(stored_tokens)
    stored = len(stored_tokens)
    lost = len(set(acknowledged) - set(counts))
    duplicated = sum(n - 1 for n in counts.values() if n > 1)
    unknown = len(set(counts) - set(submitted))
    label = args.label or connection.vendor
    p99 = percentile(latencies, 0.99) * 1000
    print(
        f"soak {label}, {len(servers)} servers: submitted {len(submitted)}, "
        f"acknowledged {len(acknowledged)}, stored {stored}, lost {lost}, "
        f"duplicated {duplicated}, 5xx {server_errors[0]}, p99 {p99:.0f} ms"
    )
    if unknown:
        print(f"soak {label}: {unknown} stored attempts were never submitted", file=sys.stderr)
    return 1 if (lost or duplicated or server_errors[0] or unknown) else 0


if __name__ == "__main__":
    sys.exit(main())
