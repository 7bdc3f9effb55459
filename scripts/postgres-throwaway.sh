#!/usr/bin/env bash
# Starts a throwaway PostgreSQL cluster listening only on a unix socket, prints
# "ready SOCKET_DIR" (connect with host=SOCKET_DIR user=kenning dbname=postgres), and stops and
# deletes it when its standard input closes: a test process holding the pipe cleans up even
# when it is killed.
#
# The server's programs come from $KENNING_PG_BIN, else the newest /usr/lib/postgresql/*/bin
# (Debian's `postgresql` package), else the PATH. As root, the cluster runs as the `postgres`
# user (initdb refuses to run as root).
set -euo pipefail

bin="${KENNING_PG_BIN:-}"
if [ -z "$bin" ]; then
    bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)"
fi
if [ -z "$bin" ] && command -v initdb >/dev/null; then
    bin="$(dirname "$(command -v initdb)")"
fi
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ] || [ ! -x "$bin/postgres" ]; then
    echo "no PostgreSQL server programs found (install Debian's postgresql, or set KENNING_PG_BIN)" >&2
    exit 1
fi

dir="$(mktemp -d "${TMPDIR:-/tmp}/kenning-pg.XXXXXX")"
as_owner=()
if [ "$(id -u)" = 0 ]; then
    chown postgres "$dir"
    as_owner=(runuser -u postgres --)
fi
if ! "${as_owner[@]}" "$bin/initdb" -D "$dir/data" -A trust -U kenning -E UTF8 --no-sync \
    >"$dir/initdb.log" 2>&1; then
    cat "$dir/initdb.log" >&2
    rm -rf "$dir"
    exit 1
fi
"${as_owner[@]}" "$bin/postgres" -D "$dir/data" -k "$dir" -c listen_addresses='' \
    -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300 \
    >"$dir/server.log" 2>&1 </dev/null &
server=$!
for _ in $(seq 1 200); do
    if "$bin/pg_isready" -q -h "$dir" -U kenning; then
        break
    fi
    if ! kill -0 "$server" 2>/dev/null; then
        cat "$dir/server.log" >&2
        rm -rf "$dir"
        exit 1
    fi
    sleep 0.05
done
echo "ready $dir"
cat >/dev/null || true
# The postmaster itself (runuser does not pass signals on): SIGINT is a fast shutdown.
kill -INT "$(head -n 1 "$dir/data/postmaster.pid")" 2>/dev/null || true
wait "$server" 2>/dev/null || true
rm -rf "$dir"
