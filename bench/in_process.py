"""Django set up inside a bench's own process, on a SQLite file of its own: the
benches that call views through the test client (results, memory, page sizes) start
here, and measure admin pages with `admin_page_measurer`."""

import argparse
import os
import tempfile
import time
from pathlib import Path


def django_in_process(db_file: Path) -> None:
    """Development settings with DEBUG off, any host, plain static storage (the
    benches measure views, not collectstatic), and the database migrated."""
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{db_file}")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings.base")
    os.environ["DJANGO_DEBUG"] = "false"
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    settings.ALLOWED_HOSTS = ["*"]
    settings.STORAGES["staticfiles"] = {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
    }
    call_command("migrate", verbosity=0)


def data_arguments(parser: argparse.ArgumentParser, *, attempts: int) -> None:
    """The options of a bench over generated cohort data: how much, and where it lives."""
    parser.add_argument("--learners", type=int, default=1000)
    parser.add_argument("--attempts", type=int, default=attempts)
    parser.add_argument(
        "--reuse", type=Path, default=None, help="SQLite file to keep and reuse between runs."
    )
    parser.add_argument(
        "--reuse-database",
        action="store_true",
        help="With DATABASE_URL: measure the data an earlier run left there, if any.",
    )


def data_workspace(args: argparse.Namespace, prefix: str) -> tuple[Path, bool, bool]:
    """Set Django up on the bench's database (`--reuse`'s SQLite file, a fresh one, or
    DATABASE_URL's): the work folder, whether a kept SQLite file is reused, and whether
    the database is an external one."""
    workdir = Path(tempfile.mkdtemp(prefix=prefix))
    db_file = args.reuse or workdir / "bench.sqlite3"
    reuse = args.reuse is not None and args.reuse.exists()
    external = "DATABASE_URL" in os.environ
    django_in_process(db_file)
    return workdir, reuse, external


def admin_page_measurer():
    """A `measure(label, url, target=None, stream=False, runs=3)` that GETs `url` as a
    superuser and prints the best and median wall time, the best CPU time (on SQLite
    the queries run in this process, so CPU time is what the request costs on a
    machine nobody shares), the queries, the size and the target's verdict."""
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    admin, _ = get_user_model().objects.get_or_create(
        username="bench-admin", defaults={"is_staff": True, "is_superuser": True}
    )
    client = Client()
    client.force_login(admin)

    def measure(label, url, target=None, stream=False, runs=3):
        times, cpu = [], []
        for _ in range(runs):
            with CaptureQueriesContext(connection) as queries:
                start, start_cpu = time.perf_counter(), time.process_time()
                response = client.get(url)
                body = b"".join(response.streaming_content) if stream else response.content
                times.append(time.perf_counter() - start)
                cpu.append(time.process_time() - start_cpu)
            assert response.status_code == 200, (url, response.status_code)
        best, median = min(times), sorted(times)[len(times) // 2]
        verdict = "" if target is None else ("ok" if best < target else "SLOW")
        target_text = "" if target is None else f"target < {target:.1f} s"
        print(
            f"{label:<34} best {best * 1000:7.0f} ms  median {median * 1000:7.0f} ms"
            f"  cpu {min(cpu) * 1000:6.0f} ms  {len(queries):3d} queries"
            f"  {len(body) / 1e6:6.1f} MB  {target_text} {verdict}"
        )

    return measure
