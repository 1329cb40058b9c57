#!/usr/bin/env bash
# A throwaway Redis (Debian's redis-server) for the PostgreSQL test run, the soak and
# the bench: on a unix socket in a temporary folder (no TCP port), nothing saved to
# disk, 64 MB at most with the least recently used keys evicted first. Usage:
#   .ci/redis.sh start   -> prints the REDIS_URL to use
#   .ci/redis.sh stop    -> stops the server and removes its folder
set -euo pipefail
STATE="${REDIS_STATE:-/tmp/portal-ci-redis.dir}"

case "${1:-}" in
  start)
    command -v redis-server >/dev/null || { echo "needs redis-server: apt-get install redis-server" >&2; exit 1; }
    DIR=$(mktemp -d /tmp/portal-redis.XXXXXX)
    echo "$DIR" > "$STATE"
    redis-server --port 0 --unixsocket "$DIR/redis.sock" --unixsocketperm 700 \
      --save "" --appendonly no --maxmemory 64mb --maxmemory-policy allkeys-lru \
      --daemonize yes --pidfile "$DIR/redis.pid" --logfile "$DIR/log" --dir "$DIR"
    for _ in $(seq 100); do
      [ -S "$DIR/redis.sock" ] && [ -s "$DIR/redis.pid" ] && break
      sleep 0.05
    done
    [ -S "$DIR/redis.sock" ] || { cat "$DIR/log" >&2; exit 1; }
    echo "unix://$DIR/redis.sock"
    ;;
  stop)
    [ -f "$STATE" ] || exit 0
    DIR=$(cat "$STATE")
    if [ -s "$DIR/redis.pid" ]; then
      PID=$(cat "$DIR/redis.pid")
      kill "$PID" 2>/dev/null || true
      for _ in $(seq 100); do kill -0 "$PID" 2>/dev/null || break; sleep 0.05; done
    fi
    rm -rf "$DIR" "$STATE"
    ;;
  *)
    echo "usage: $0 start|stop" >&2
    exit 2
    ;;
esac
