#!/usr/bin/env bash
# A throwaway PostgreSQL 15 cluster for the test suite: initdb into a temporary folder,
# run as the postgres user, listening on 127.0.0.1 only. Usage:
#   .ci/postgres.sh start   -> prints the DATABASE_URL to use
#   .ci/postgres.sh stop    -> stops the cluster and removes its folder
set -euo pipefail
PORT="${PG_PORT:-54329}"
STATE="${PG_STATE:-/tmp/portal-ci-pg.dir}"

bindir() {
  for dir in /usr/lib/postgresql/15/bin /usr/lib/postgresql/*/bin; do
    [ -x "$dir/initdb" ] && { echo "$dir"; return; }
  done
  return 1
}

case "${1:-}" in
  start)
    if ! BIN=$(bindir); then
      apt-get update -qq
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql-15 >/dev/null
      BIN=$(bindir)
    fi
    id postgres >/dev/null 2>&1 || useradd --system --home /nonexistent postgres
    DIR=$(mktemp -d /tmp/portal-pg.XXXXXX)
    chown postgres "$DIR"
    echo "$DIR" > "$STATE"
    su postgres -s /bin/sh -c "'$BIN/initdb' -D '$DIR/data' -U postgres -A trust -E UTF8 --locale=C.UTF-8" >/dev/null
    su postgres -s /bin/sh -c "'$BIN/pg_ctl' -D '$DIR/data' -l '$DIR/log' -w \
      -o \"-c listen_addresses=127.0.0.1 -p $PORT -k '$DIR' -c fsync=off -c full_page_writes=off\" start" >/dev/null
    su postgres -s /bin/sh -c "'$BIN/createdb' -h 127.0.0.1 -p $PORT portal"
    echo "postgres://postgres@127.0.0.1:$PORT/portal"
    ;;
  stop)
    [ -f "$STATE" ] || exit 0
    DIR=$(cat "$STATE")
    BIN=$(bindir)
    su postgres -s /bin/sh -c "'$BIN/pg_ctl' -D '$DIR/data' -m fast -w stop" >/dev/null 2>&1 || true
    rm -rf "$DIR" "$STATE"
    ;;
  *)
    echo "usage: $0 start|stop" >&2
    exit 2
    ;;
esac
