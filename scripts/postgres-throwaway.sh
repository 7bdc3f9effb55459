#!/usr/bin/env bash
# Starts a throwaway PostgreSQL cluster listening only on a unix socket, prints
# "ready SOCKET_DIR" (connect with host=SOCKET_DIR user=kenning dbname=postgres), and stops and
# deletes it when its standard input closes: a test process holding the pipe cleans up even
# when it is killed.
#
# With --tls it also listens on 127.0.0.1 for TLS connections only (a certificate for
# `localhost` signed by a certificate authority made for it; plain TCP is refused) and prints
# "ready SOCKET_DIR PORT CA_FILE".
#
# With --restartable it is started by pg_ctl, its settings in its postgresql.conf, and prints
# "ready SOCKET_DIR DATA_DIR BIN_DIR": the caller may stop, start and restart it with
# `BIN_DIR/pg_ctl -D DATA_DIR` (as the `postgres` user when root), as the fault tests do.
#
# The server's programs come from $KENNING_PG_BIN, else the newest /usr/lib/postgresql/*/bin
# (Debian's `postgresql` package), else the PATH. As root, the cluster runs as the `postgres`
# user (initdb refuses to run as root).
set -euo pipefail
tls=false
restartable=false
[ "${1:-}" = --tls ] && tls=true
[ "${1:-}" = --restartable ] && restartable=true

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
listen=(-c listen_addresses='')
if $tls; then
    # A certificate authority and a server certificate for localhost, made for this cluster.
    openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=kenning-test-ca \
        -keyout "$dir/ca.key" -out "$dir/ca.pem" >"$dir/openssl.log" 2>&1
    openssl req -newkey rsa:2048 -nodes -subj /CN=localhost -keyout "$dir/data/server.key" \
        -out "$dir/server.csr" >>"$dir/openssl.log" 2>&1
    printf 'subjectAltName=DNS:localhost\n' >"$dir/san.ext"
    openssl x509 -req -in "$dir/server.csr" -CA "$dir/ca.pem" -CAkey "$dir/ca.key" -CAcreateserial \
        -days 2 -extfile "$dir/san.ext" -out "$dir/data/server.crt" >>"$dir/openssl.log" 2>&1
    chmod 600 "$dir/data/server.key"
    [ "$(id -u)" = 0 ] && chown postgres "$dir/data/server.key" "$dir/data/server.crt"
    chmod 644 "$dir/ca.pem"
    printf 'local all all trust\nhostssl all all 127.0.0.1/32 trust\nhostnossl all all 127.0.0.1/32 reject\n' \
        >"$dir/data/pg_hba.conf"
    port=$((20000 + RANDOM % 20000))
    listen=(-c listen_addresses=127.0.0.1 -c port="$port" -c ssl=on)
fi
if $restartable; then
    printf "%s\n" "listen_addresses = ''" "unix_socket_directories = '$dir'" "fsync = off" \
        "synchronous_commit = off" "full_page_writes = off" "max_connections = 300" \
        >>"$dir/data/postgresql.conf"
    if ! "${as_owner[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w start >/dev/null; then
        cat "$dir/server.log" >&2
        rm -rf "$dir"
        exit 1
    fi
    echo "ready $dir $dir/data $bin"
    cat >/dev/null || true
    "${as_owner[@]}" "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$dir"
    exit 0
fi
"${as_owner[@]}" "$bin/postgres" -D "$dir/data" -k "$dir" "${listen[@]}" \
    -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300 \
    >"$dir/server.log" 2>&1 </dev/null &
server=$!
for _ in $(seq 1 200); do
    if "$bin/pg_isready" -q -h "$dir" -U kenning ${port:+-p "$port"}; then
        break
    fi
    if ! kill -0 "$server" 2>/dev/null; then
        cat "$dir/server.log" >&2
        rm -rf "$dir"
        exit 1
    fi
    sleep 0.05
done
if $tls; then
    echo "ready $dir $port $dir/ca.pem"
else
    echo "ready $dir"
fi
cat >/dev/null || true
# The postmaster itself (runuser does not pass signals on): SIGINT is a fast shutdown.
kill -INT "$(head -n 1 "$dir/data/postmaster.pid")" 2>/dev/null || true
wait "$server" 2>/dev/null || true
rm -rf "$dir"
