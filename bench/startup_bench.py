"""Benchmark: seconds from `make run` to a page served, on an existing checkout.

Target: under 3 s. Run `python bench/startup_bench.py` after one `make run` has set the
checkout up (virtualenv, database); it starts `make run` on a free port, polls /healthz
on 127.0.0.1 until it answers, prints the time, and stops the server.
"""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.servers import free_port, wait_for_health  # noqa: E402


def main() -> None:
    port = free_port()
    runs = []
    for _ in range(3):
        start = time.perf_counter()
        server = subprocess.Popen(
            ["make", "run", f"PORT={port}"],
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        try:
            wait_for_health(port, timeout=60)
            runs.append(time.perf_counter() - start)
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=30)
    best = min(runs)
    print(
        f"make run to first response: best {best:.2f} s, runs "
        + ", ".join(f"{r:.2f}" for r in runs)
        + f" (target < 3 s: {'ok' if best < 3 else 'SLOW'})"
    )


if __name__ == "__main__":
    main()
