#!/usr/bin/env bash
# Runs docs/deployment.md end to end on this machine, and fails (naming the step) when a step does
# not do what the page says: a throwaway PostgreSQL cluster that takes only TLS connections
# (postgres-throwaway.sh --tls), the page's roles, grants and pg_hba.conf lines, two servers
# started with the page's unit command line and connecting with sslmode=verify-full, nginx with
# the page's site and a self-signed certificate, requests through it over HTTPS, tokens made and
# revoked, a pg_dump restored into a new database and served, and the two upgrade cases (an older
# schema migrated on start; a newer one refused).
#
# The page's blocks marked `<!-- deployment-check: NAME -->` are copied from it, with its names
# replaced by this run's (localhost, free ports, a temporary directory). Everything runs as the
# calling user (as root, the cluster runs as `postgres`: see postgres-throwaway.sh), in a temporary
# directory, with nothing installed and no system file touched; all of it is stopped and deleted
# when the script ends, fails or is killed (SIGKILL included: a guard process watches it).
#
# Needs nginx, PostgreSQL's server and client programs, openssl and curl (Debian: nginx,
# postgresql, openssl, curl). The kenning binary is $KENNING_BIN, else target/debug/kenning.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
doc="$root/docs/deployment.md"
kenning="${KENNING_BIN:-$root/target/debug/kenning}"
case "$kenning" in /*) ;; *) kenning="$PWD/$kenning" ;; esac
name=kenning.example.com
subject=account:acme

step="starting"
begin() {
    step="$1"
    echo "deployment-check: ${SECONDS}s: $step"
}
fail() {
    echo "deployment-check: FAILED in step \"$step\": $*" >&2
    exit 1
}

# --- What it needs -------------------------------------------------------------------------------
nginx_bin="$(command -v nginx || true)"
if [ -z "$nginx_bin" ] && [ -x /usr/sbin/nginx ]; then
    nginx_bin=/usr/sbin/nginx
fi
missing=()
[ -n "$nginx_bin" ] || missing+=("nginx (Debian package nginx)")
for tool in psql pg_dump pg_restore; do
    command -v "$tool" >/dev/null || missing+=("$tool (Debian package postgresql-client)")
done
for tool in openssl curl awk; do
    command -v "$tool" >/dev/null || missing+=("$tool")
done
if [ "${#missing[@]}" -gt 0 ]; then
    fail "missing: ${missing[*]}"
fi
[ -x "$kenning" ] || fail "no kenning binary at $kenning (set KENNING_BIN)"
[ -f "$doc" ] || fail "no $doc"

# --- Processes, and their cleanup ---------------------------------------------------------------
work="$(mktemp -d "${TMPDIR:-/tmp}/kenning-deployment.XXXXXX")"
: >"$work/pids"
pg_in=""
pg_pid=""
guard_pid=""

# Every process the script started (listed in $work/pids), newest first: SIGTERM, then SIGKILL
# for any still running 10 seconds later.
stop_started() {
    local pids pid alive
    pids="$(tac "$work/pids" 2>/dev/null || true)"
    for pid in $pids; do
        kill -TERM "$pid" 2>/dev/null || true
    done
    for _ in $(seq 1 100); do
        alive=""
        for pid in $pids; do
            if kill -0 "$pid" 2>/dev/null; then
                alive=1
            fi
        done
        [ -n "$alive" ] || break
        sleep 0.1
    done
    for pid in $pids; do
        kill -KILL "$pid" 2>/dev/null || true
    done
}

cleanup() {
    local status=$?
    set +e
    trap - EXIT INT TERM HUP
    if [ -n "$guard_pid" ]; then
        kill "$guard_pid" 2>/dev/null
    fi
    stop_started
    if [ "$status" -ne 0 ]; then
        for log in "$work"/*.log "$work"/nginx/error.log; do
            [ -s "$log" ] || continue
            echo "--- the last lines of ${log#"$work"/}:" >&2
            tail -n 15 "$log" >&2
        done
    fi
    # Closing the cluster's standard input stops it and deletes its directory.
    if [ -n "$pg_in" ]; then
        exec {pg_in}>&-
    fi
    if [ -n "$pg_pid" ]; then
        for _ in $(seq 1 100); do
            kill -0 "$pg_pid" 2>/dev/null || break
            sleep 0.1
        done
    fi
    rm -rf "$work"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

# Started with `started`: recorded for the cleanup.
started() {
    echo "$1" >>"$work/pids"
}

# --- The page's blocks ---------------------------------------------------------------------------
# block NAME: the fenced block right after `<!-- deployment-check: NAME -->`.
block() {
    local text
    text="$(awk -v marker="<!-- deployment-check: $1 -->" '
        $0 == marker { state = 1; next }
        state == 1 && /^```/ { state = 2; next }
        state == 1 && NF { exit }
        state == 2 && /^```/ { exit }
        state == 2 { print }' "$doc")"
    [ -n "$text" ] || fail "docs/deployment.md has no block marked deployment-check: $1"
    printf '%s\n' "$text"
}

# replace TEXT FROM TO [FROM TO ...]: TEXT with each FROM replaced, each of which must be in it.
replace() {
    local text="$1"
    shift
    while [ "$#" -gt 0 ]; do
        [[ "$text" == *"$1"* ]] || fail "a block of docs/deployment.md has no \"$1\""
        text="${text//"$1"/"$2"}"
        shift 2
    done
    printf '%s\n' "$text"
}

now_ms() {
    echo $(($(date +%s%N) / 1000000))
}

# --- HTTP ------------------------------------------------------------------------------------------
# call URL [curl args...]: the status; the body is in $work/body.
call() {
    local url="$1"
    shift
    local code
    code="$(curl -sS -o "$work/body" -w '%{http_code}' "$@" "$url" 2>"$work/curl.err")" || true
    echo "${code:-000}"
}
# proxied PATH [curl args...]: as call, through nginx over HTTPS, checking its certificate.
proxied() {
    local path="$1"
    shift
    call "https://$name:$nginx_port$path" --cacert "$work/tls/$name.crt" \
        --resolve "$name:$nginx_port:127.0.0.1" "$@"
}
body() {
    cat "$work/body"
}
# expect WANT GOT WHAT: fails unless the status GOT is WANT.
expect() {
    [ "$2" = "$1" ] || fail "$3: HTTP $2, expected $1: $(head -c 400 "$work/body" 2>/dev/null)"
}
expect_body() {
    grep -qF -- "$1" "$work/body" || fail "$2: the answer has no $1: $(head -c 400 "$work/body")"
}

# --- Servers -------------------------------------------------------------------------------------
declare -A server_pid server_port metrics_port
# serve NAME COMMAND...: starts a server whose output goes to $work/NAME.{out,log}.
serve() {
    local label="$1"
    shift
    "$@" >"$work/$label.out" 2>"$work/$label.log" </dev/null {pg_in}>&- &
    server_pid[$label]=$!
    started "$!"
}
# serving NAME: waits until it says where it listens, and reads its ports.
serving() {
    local label="$1"
    for _ in $(seq 1 600); do
        if grep -q 'serving http://' "$work/$label.out" 2>/dev/null; then
            server_port[$label]="$(sed -n 's#.*serving http://127\.0\.0\.1:\([0-9]*\)/v1/.*#\1#p' "$work/$label.out")"
            metrics_port[$label]="$(sed -n 's#.*metrics at http://127\.0\.0\.1:\([0-9]*\)/metrics.*#\1#p' "$work/$label.out")"
            [ -n "${server_port[$label]}" ] || fail "server $label: no port in: $(cat "$work/$label.out")"
            return 0
        fi
        kill -0 "${server_pid[$label]}" 2>/dev/null ||
            fail "server $label exited: $(tail -n 5 "$work/$label.log")"
        sleep 0.05
    done
    fail "server $label did not start within 30 s"
}
# stopped NAME: SIGTERM, and waits for it to exit.
stopped() {
    local pid="${server_pid[$1]}"
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 300); do
        kill -0 "$pid" 2>/dev/null || return 0
        sleep 0.05
    done
    fail "server $1 did not stop within 15 s of SIGTERM"
}
direct() {
    local label="$1" path="$2"
    shift 2
    call "http://127.0.0.1:${server_port[$label]}$path" "$@"
}

# ==================================================================================================
begin "1. the database: a cluster that takes only TLS connections"
# The cluster runs in a session of its own (a Ctrl-C reaches only this script, whose cleanup
# stops it), and stops when its standard input, held by this script alone, closes.
exec {pg_in}> >(exec setsid "$root/scripts/postgres-throwaway.sh" --tls >"$work/pg.out" 2>"$work/pg.log")
pg_pid=$!
# A guard stops everything if this script dies without its cleanup (SIGKILL).
main_pid=$$
(
    while kill -0 "$main_pid" 2>/dev/null; do
        sleep 0.5
    done
    stop_started
    rm -rf "$work"
) {pg_in}>&- </dev/null >/dev/null 2>&1 &
guard_pid=$!
for _ in $(seq 1 600); do
    grep -q '^ready ' "$work/pg.out" 2>/dev/null && break
    kill -0 "$pg_pid" 2>/dev/null || fail "the throwaway cluster did not start: $(cat "$work/pg.log")"
    sleep 0.05
done
read -r ready pg_dir pg_port pg_ca <"$work/pg.out" || true
[ "${ready:-}" = ready ] || fail "the throwaway cluster did not start within 30 s"
cp "$pg_ca" "$work/db-ca.pem"
# The cluster's superuser (`kenning`) over its unix socket: Debian's `sudo -u postgres psql`.
superuser="host=$pg_dir port=$pg_port user=kenning dbname=postgres"
su_psql() {
    psql "$superuser" -X -q -v ON_ERROR_STOP=1 "$@"
}

begin "1. the database: pg_hba.conf"
hba="$(replace "$(block pg-hba)" 10.0.0.0/24 127.0.0.1/32)"
# The local superuser's line stands for Debian's `local all postgres peer`; the page's lines are
# the only ones for TCP.
printf 'local all all trust\n%s\n' "$hba" >"$pg_dir/data/pg_hba.conf"
su_psql -c 'SELECT pg_reload_conf()' >/dev/null
hba_errors="$(su_psql -tAc 'SELECT error FROM pg_hba_file_rules WHERE error IS NOT NULL')"
[ -z "$hba_errors" ] || fail "pg_hba.conf: $hba_errors"

begin "1. the database: roles, database and grants"
owner_password="$(openssl rand -hex 24)"
query_password="$(openssl rand -hex 24)"
block roles-sql >"$work/kenning-roles.sql"
su_psql -v owner_password="$owner_password" -v query_password="$query_password" \
    <"$work/kenning-roles.sql" >/dev/null || fail "kenning-roles.sql failed"

begin "2. the environment file"
replace "$(block env-file)" \
    OWNER_PASSWORD "$owner_password" QUERY_PASSWORD "$query_password" \
    db.example.com "localhost:$pg_port" /etc/kenning/db-ca.pem "$work/db-ca.pem" \
    /var/lib/kenning "$work/home" >"$work/kenning.env"
chmod 600 "$work/kenning.env"
set -a
# shellcheck disable=SC1091
. "$work/kenning.env"
set +a
mkdir -m 700 "$work/home"
replace "$(block admin-wrapper)" \
    /etc/kenning/kenning.env "$work/kenning.env" /usr/local/bin/kenning "$kenning" \
    >"$work/kenning-admin"
chmod 755 "$work/kenning-admin"

begin "1. the database: the logins over TLS with verify-full"
who="$(psql "$KENNING_STORE" -X -tAc 'SELECT current_user')" || fail "psql \$KENNING_STORE failed"
[ "$who" = kenning_owner ] || fail "KENNING_STORE logs in as $who"
who="$(psql "$KENNING_QUERY_STORE" -X -tAc 'SELECT current_user')" ||
    fail "psql \$KENNING_QUERY_STORE failed"
[ "$who" = kenning_query ] || fail "KENNING_QUERY_STORE logs in as $who"
if out="$(psql "${KENNING_STORE/$owner_password/wrong}" -X -tAc 'SELECT 1' 2>&1)"; then
    fail "a wrong password was accepted"
fi
[[ "$out" == *"password authentication failed"* ]] || fail "a wrong password: $out"
if out="$(PGPASSWORD="$owner_password" psql "host=localhost port=$pg_port user=kenning_owner dbname=kenning sslmode=disable" -X -tAc 'SELECT 1' 2>&1)"; then
    fail "a connection without TLS was accepted"
fi
[[ "$out" == *"no pg_hba.conf entry"*"no encryption"* ]] || fail "a connection without TLS: $out"

# ==================================================================================================
begin "2. two servers, started at once on the empty database"
unit_command="$(block unit | sed -n 's/^ExecStart=//p')"
unit_command="$(replace "$unit_command" /usr/local/bin/kenning "$kenning" \
    "--port 808%i" "--port 0" "127.0.0.1:946%i" "127.0.0.1:0")"
read -ra serve_command <<<"$unit_command"
serve a "${serve_command[@]}"
serve b "${serve_command[@]}"
serving a
serving b
for label in a b; do
    expect 200 "$(direct "$label" /v1/ready)" "server $label's /v1/ready"
    expect_body '{"status":"ready"}' "server $label's /v1/ready"
    [ -n "${metrics_port[$label]}" ] || fail "server $label printed no metrics address"
    expect 200 "$(call "http://127.0.0.1:${metrics_port[$label]}/metrics")" "server $label's metrics"
    expect_body 'kenning_store_pool_connections{state="max"} 16' "server $label's metrics"
done
# The build's schema version: the migrations it applied, each recorded once.
read -r migrations recorded < <(psql "$KENNING_STORE" -X -tAc 'SELECT max(version), count(*) FROM kenning_migrations' -F ' ') || true
[ -n "$migrations" ] && [ "$migrations" = "$recorded" ] ||
    fail "kenning_migrations holds versions up to ${migrations:-none} in $recorded rows"
owners="$(psql "$KENNING_STORE" -X -tAc "SELECT string_agg(DISTINCT tableowner, ',') FROM pg_tables WHERE schemaname = 'public'")"
[ "$owners" = kenning_owner ] || fail "the tables are owned by $owners"
if out="$(psql "$KENNING_QUERY_STORE" -X -tAc 'SELECT count(*) FROM public.memories' 2>&1)"; then
    fail "kenning_query read a table: $out"
fi
[[ "$out" == *"permission denied"* ]] || fail "kenning_query reading a table: $out"

begin "4. tokens: the first one"
human="$("$work/kenning-admin" token create --subject "$subject" --role human 2>"$work/token.err")" ||
    fail "token create: $(cat "$work/token.err")"
[[ "$human" == kn_* ]] || fail "token create printed $human"
auth=(-H "Authorization: Bearer $human")
json=(-H "Content-Type: application/json")
api="/v1/subjects/$subject"

# ==================================================================================================
begin "3. nginx: the certificate"
cert_script="$(block nginx-cert | grep -v 'apt-get install')"
cert_script="$(replace "$cert_script" "sudo " "" /etc/nginx/tls "$work/tls")"
bash -euo pipefail -c "$cert_script" >"$work/openssl.txt" 2>&1 || fail "the certificate: $(cat "$work/openssl.txt")"
[ -s "$work/tls/$name.crt" ] && [ -s "$work/tls/$name.key" ] || fail "no certificate and key in $work/tls"

begin "3. nginx: the site, in front of both servers"
mkdir -p "$work/nginx/tmp"
site="$(block nginx-site)"
nginx_up=""
for _ in 1 2 3 4 5; do
    nginx_port=$((20000 + RANDOM % 30000))
    replace "$site" \
        "127.0.0.1:8081" "127.0.0.1:${server_port[a]}" "127.0.0.1:8082" "127.0.0.1:${server_port[b]}" \
        "listen 443 ssl" "listen 127.0.0.1:$nginx_port ssl" /etc/nginx/tls "$work/tls" \
        /var/log/nginx/kenning.access.log "$work/nginx/access.log" >"$work/nginx/kenning.conf"
    {
        # As root, nginx's workers would run as `nobody`, who cannot enter this directory.
        if [ "$(id -u)" = 0 ]; then echo "user root root;"; fi
        echo "worker_processes 1;"
        echo "pid $work/nginx/nginx.pid;"
        echo "error_log $work/nginx/error.log warn;"
        echo "events { worker_connections 256; }"
        echo "http {"
        for temp in client_body proxy fastcgi uwsgi scgi; do
            echo "    ${temp}_temp_path $work/nginx/tmp/$temp;"
        done
        echo "    include $work/nginx/kenning.conf;"
        echo "}"
    } >"$work/nginx/nginx.conf"
    nginx_args=(-p "$work/nginx" -c "$work/nginx/nginx.conf" -e "$work/nginx/error.log")
    "$nginx_bin" -t -q "${nginx_args[@]}" 2>"$work/nginx/test.log" ||
        fail "nginx -t: $(cat "$work/nginx/test.log")"
    "$nginx_bin" "${nginx_args[@]}" -g 'daemon off;' </dev/null >/dev/null 2>&1 {pg_in}>&- &
    nginx_pid=$!
    started "$nginx_pid"
    for _ in $(seq 1 100); do
        kill -0 "$nginx_pid" 2>/dev/null || break
        [ "$(proxied /v1/health)" = 200 ] && nginx_up=1 && break
        sleep 0.05
    done
    [ -n "$nginx_up" ] && break
    kill -TERM "$nginx_pid" 2>/dev/null || true
    grep -q 'Address already in use' "$work/nginx/error.log" 2>/dev/null ||
        fail "nginx did not start: $(tail -n 5 "$work/nginx/error.log" 2>/dev/null)"
done
[ -n "$nginx_up" ] || fail "no free port for nginx in five tries"
expect 200 "$(proxied /v1/ready)" "/v1/ready through nginx"
expect_body '{"status":"ready"}' "/v1/ready through nginx"

begin "3. nginx: a memory written through one server, read through both"
expect 201 "$(direct a "$api/memories" -X POST "${auth[@]}" "${json[@]}" \
    -d '{"content": "The staging database is db-staging.internal.", "metadata": {"tags": ["ops"]}}')" \
    "a write to server a"
expect_body '"memory_id":1' "a write to server a"
: >"$work/nginx/access.log"
for _ in 1 2 3 4 5 6; do
    expect 200 "$(proxied "$api/memories/1" "${auth[@]}")" "a read through nginx"
    expect_body 'The staging database is db-staging.internal.' "a read through nginx"
done
for label in a b; do
    grep -q "GET $api/memories/1 .* 200 .*upstream=127.0.0.1:${server_port[$label]} " "$work/nginx/access.log" ||
        fail "nginx sent no read to server $label: $(cat "$work/nginx/access.log")"
    expect 200 "$(call "http://127.0.0.1:${metrics_port[$label]}/metrics")" "server $label's metrics"
    grep -q 'kenning_http_requests_total{.*route="/v1/subjects/{subject}/memories/{id}".*status="200"' "$work/body" ||
        fail "server $label's metrics count no read: $(grep kenning_http_requests_total "$work/body")"
done
expect 200 "$(proxied "$api/search" -X POST "${auth[@]}" "${json[@]}" -d '{"query": "staging database"}')" \
    "a search through nginx"
expect_body '"memory_id":1' "a search through nginx"
expect 200 "$(proxied "$api/query" -X POST "${auth[@]}" "${json[@]}" \
    -d '{"sql": "SELECT id, text FROM memories"}')" "read-only SQL through nginx (the query login)"
expect_body 'db-staging.internal' "read-only SQL through nginx (the query login)"

begin "3. nginx: MCP sessions through the proxy"
mcp_headers=(-H "Authorization: Bearer $human" -H "Content-Type: application/json"
    -H "Accept: application/json, text/event-stream")
: >"$work/nginx/access.log"
expect 200 "$(proxied /v1/mcp -X POST "${mcp_headers[@]}" -D "$work/mcp.headers" \
    -d '{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-03-26", "capabilities": {}, "clientInfo": {"name": "deployment-check", "version": "1"}}}')" \
    "MCP initialize through nginx"
expect_body '"serverInfo"' "MCP initialize through nginx"
session="$(sed -n 's/^mcp-session-id: *//Ip' "$work/mcp.headers" | tr -d '\r')"
[ -n "$session" ] || fail "MCP initialize answered no Mcp-Session-Id: $(cat "$work/mcp.headers")"
status="$(proxied /v1/mcp -X POST "${mcp_headers[@]}" -H "Mcp-Session-Id: $session" \
    -d '{"jsonrpc": "2.0", "method": "notifications/initialized"}')"
[ "$status" = 202 ] || [ "$status" = 200 ] || fail "MCP initialized: HTTP $status: $(body)"
for id in 2 3 4 5; do
    expect 200 "$(proxied /v1/mcp -X POST "${mcp_headers[@]}" -H "Mcp-Session-Id: $session" \
        -d "{\"jsonrpc\": \"2.0\", \"id\": $id, \"method\": \"tools/list\"}")" "MCP tools/list through nginx"
    expect_body '"tools"' "MCP tools/list through nginx"
done
upstreams="$(grep ' "POST /v1/mcp ' "$work/nginx/access.log" | sed 's/.* upstream=\([^ ]*\) .*/\1/' | sort -u)"
[ "$(echo "$upstreams" | wc -l)" = 1 ] || fail "one MCP session reached several servers: $upstreams"

begin "3. nginx: body sizes"
head -c 70000 /dev/zero | tr '\0' a >"$work/70k.json"
head -c 200000 /dev/zero | tr '\0' a >"$work/200k.json"
expect 413 "$(proxied "$api/memories" -X POST "${auth[@]}" "${json[@]}" --data-binary @"$work/70k.json")" \
    "a body of 70,000 bytes"
expect_body '"code":"too_large"' "a body of 70,000 bytes (kenning's own answer)"
expect 413 "$(proxied "$api/memories" -X POST "${auth[@]}" "${json[@]}" --data-binary @"$work/200k.json")" \
    "a body of 200,000 bytes"
expect_body '413 Request Entity Too Large' "a body of 200,000 bytes (nginx's own answer)"

# ==================================================================================================
begin "4. tokens: create, list, use through nginx, revoke"
agent="$("$work/kenning-admin" token create --subject "$subject" --role agent 2>"$work/token.err")" ||
    fail "token create: $(cat "$work/token.err")"
agent_id="$(sed -n 's/^kenning: token \([^ ]*\) (agent).*/\1/p' "$work/token.err")"
[ -n "$agent_id" ] || fail "token create said: $(cat "$work/token.err")"
"$work/kenning-admin" token list >"$work/tokens.txt" || fail "token list"
grep -q "^$agent_id agent $subject (active)" "$work/tokens.txt" || fail "token list: $(cat "$work/tokens.txt")"
grep -q -- "$agent" "$work/tokens.txt" && fail "token list printed a token"
for label in a b; do
    expect 200 "$(direct "$label" "$api/memories/1" -H "Authorization: Bearer $agent")" "the new token on server $label"
done
for _ in 1 2; do
    expect 200 "$(proxied "$api/memories/1" -H "Authorization: Bearer $agent")" "the new token through nginx"
done
"$work/kenning-admin" token revoke "$agent_id" >"$work/revoke.txt" || fail "token revoke"
revoked_at="$(now_ms)"
grep -q "^revoked $agent_id (agent)" "$work/revoke.txt" || fail "token revoke said: $(cat "$work/revoke.txt")"
for label in a b; do
    refused=""
    while [ $(($(now_ms) - revoked_at)) -lt 3000 ]; do
        if [ "$(direct "$label" "$api/memories/1" -H "Authorization: Bearer $agent")" = 401 ]; then
            refused=$(($(now_ms) - revoked_at))
            break
        fi
        sleep 0.01
    done
    [ -n "$refused" ] || fail "server $label still takes the revoked token 3 s after revoke"
    echo "deployment-check:   server $label refuses the revoked token ${refused} ms after revoke returned"
    [ "$refused" -le 1000 ] || fail "server $label took ${refused} ms to refuse the revoked token"
done
for _ in 1 2; do
    expect 401 "$(proxied "$api/memories/1" -H "Authorization: Bearer $agent")" "the revoked token through nginx"
done
expect 200 "$(proxied "$api/memories/1" "${auth[@]}")" "the other token through nginx"
"$work/kenning-admin" token list >"$work/tokens.txt" || fail "token list"
grep -q "^$agent_id agent $subject (revoked at [0-9]*)" "$work/tokens.txt" ||
    fail "token list after revoke: $(cat "$work/tokens.txt")"

# ==================================================================================================
begin "5. backups: pg_dump -Fc, then pg_restore into a new database"
expect 200 "$(direct a "$api/memories/1" "${auth[@]}")" "the memory before the dump"
original="$(body)"
pg_dump -Fc -d "host=$pg_dir port=$pg_port user=kenning dbname=kenning" >"$work/kenning.dump" ||
    fail "pg_dump"
block restore-sql >"$work/kenning-restored.sql"
su_psql <"$work/kenning-restored.sql" >/dev/null || fail "kenning-restored.sql failed"
pg_restore --exit-on-error --single-transaction \
    -d "host=$pg_dir port=$pg_port user=kenning dbname=kenning_restored" <"$work/kenning.dump" \
    2>"$work/restore.log" || fail "pg_restore: $(cat "$work/restore.log")"

counts="SELECT (SELECT count(*) FROM memories) || ' ' || (SELECT count(*) FROM events) || ' '
    || (SELECT count(*) FROM kenning_tokens) || ' ' || (SELECT count(*) FROM kenning_tokens WHERE revoked_at IS NOT NULL)
    || ' ' || (SELECT max(version) FROM kenning_migrations)"
before="$(psql "host=$pg_dir port=$pg_port user=kenning dbname=kenning" -X -tAc "$counts")"
after="$(psql "host=$pg_dir port=$pg_port user=kenning dbname=kenning_restored" -X -tAc "$counts")"
[ "$before" = "$after" ] ||
    fail "memories, events, tokens, revoked tokens, version: $before in the database, $after restored"

begin "5. backups: a server on the restored database"
# The page's drill: a copy of the environment file naming the restored database.
install -m 600 /dev/null "$work/restored.env"
sed 's#/kenning?#/kenning_restored?#' "$work/kenning.env" >"$work/restored.env"
[ "$(grep -c '/kenning_restored?' "$work/restored.env")" = 2 ] ||
    fail "restored.env names the restored database $(grep -c '/kenning_restored?' "$work/restored.env") times, not 2"
serve restored sh -c 'set -a; . "$1"; exec "$2" serve --port 0' sh "$work/restored.env" "$kenning"
serving restored
restored="$(sed -n "s/^KENNING_STORE='\(.*\)'$/\1/p" "$work/restored.env")"
restored_query="$(sed -n "s/^KENNING_QUERY_STORE='\(.*\)'$/\1/p" "$work/restored.env")"
[ -n "$restored" ] && [ -n "$restored_query" ] || fail "cannot read restored.env"
expect 200 "$(direct restored "$api/memories/1" "${auth[@]}")" "the memory from the restored database"
for field in '"memory_id":1' '"content":"The staging database is db-staging.internal."' \
    "$(grep -o '"created_at":"[^"]*"' <<<"$original")"; do
    expect_body "$field" "the memory from the restored database"
done
expect 401 "$(direct restored "$api/memories/1" -H "Authorization: Bearer $agent")" \
    "the revoked token on the restored database"
expect 200 "$(direct restored "$api/query" -X POST "${auth[@]}" "${json[@]}" \
    -d '{"sql": "SELECT text FROM memories"}')" "read-only SQL on the restored database"
expect_body 'db-staging.internal' "read-only SQL on the restored database"
stopped restored

# ==================================================================================================
begin "3. nginx: one server stopped, the other answers everything"
stopped b
for _ in 1 2 3 4; do
    expect 200 "$(proxied "$api/memories/1" "${auth[@]}")" "a read through nginx with server b stopped"
done
expect 201 "$(proxied "$api/memories" -X POST "${auth[@]}" "${json[@]}" \
    -d '{"content": "Server b is down for its upgrade."}')" "a write through nginx with server b stopped"

# ==================================================================================================
begin "6. upgrades: a database at the previous schema version is migrated on start"
su_psql -c 'DROP DATABASE kenning_restored' >/dev/null
su_psql <"$work/kenning-restored.sql" >/dev/null || fail "kenning-restored.sql failed"
# The repository's migrations but the build's last (migrations are only ever added, so the first
# ones are the build's).
previous=$((migrations - 1))
[ "$(find "$root/host/src/store/postgres/migrations" -name '*.sql' | wc -l)" -ge "$previous" ] ||
    fail "the repository has fewer than $previous migrations"
{
    echo "CREATE TABLE kenning_migrations (version BIGINT PRIMARY KEY);"
    number=0
    for migration in $(find "$root/host/src/store/postgres/migrations" -name '*.sql' | sort | head -n "$previous"); do
        number=$((number + 1))
        cat "$migration"
        echo ";"
        echo "INSERT INTO kenning_migrations (version) VALUES ($number);"
    done
} >"$work/previous-schema.sql"
psql "$restored" -X -q -1 -v ON_ERROR_STOP=1 <"$work/previous-schema.sql" >/dev/null 2>"$work/previous.log" ||
    fail "the previous schema: $(cat "$work/previous.log")"
before_start="$(psql "$restored" -X -tAc 'SELECT max(version) FROM kenning_migrations')"
[ "$before_start" = "$previous" ] || fail "the previous schema is at version $before_start, not $previous"
serve upgraded "$work/kenning-admin" --store "$restored" --query-store "$restored_query" serve --port 0
serving upgraded
# A database of its own, so tokens of its own.
upgrade_token="$("$work/kenning-admin" --store "$restored" token create --subject "$subject" --role human 2>"$work/token.err")" ||
    fail "token create: $(cat "$work/token.err")"
version="$(psql "$restored" -X -tAc 'SELECT max(version) || $$ $$ || count(*) FROM kenning_migrations')"
[ "$version" = "$migrations $migrations" ] ||
    fail "after the start, kenning_migrations holds (max, count) $version, expected $migrations $migrations"
expect 201 "$(direct upgraded "$api/memories" -X POST -H "Authorization: Bearer $upgrade_token" "${json[@]}" \
    -d '{"content": "Written after the migration."}')" "a write on the migrated database"
expect 200 "$(direct upgraded "$api/query" -X POST -H "Authorization: Bearer $upgrade_token" "${json[@]}" \
    -d '{"sql": "SELECT text FROM memories"}')" "read-only SQL on the migrated database (its views)"
expect_body 'Written after the migration.' "read-only SQL on the migrated database (its views)"

begin "6. upgrades: a server refuses a schema newer than its build"
newer=$((migrations + 1))
psql "$restored" -X -q -c "INSERT INTO kenning_migrations (version) VALUES ($newer)" ||
    fail "could not record version $newer"
expect 200 "$(direct upgraded "$api/memories/1" -H "Authorization: Bearer $upgrade_token")" "the server already running, after the schema moved on"
set +e
"$work/kenning-admin" --store "$restored" --query-store "$restored_query" serve --port 0 \
    >"$work/refused.out" 2>"$work/refused.log" </dev/null {pg_in}>&- &
refused_pid=$!
started "$refused_pid"
for _ in $(seq 1 600); do
    kill -0 "$refused_pid" 2>/dev/null || break
    sleep 0.05
done
kill -0 "$refused_pid" 2>/dev/null && fail "a server is running on a schema at version $newer"
wait "$refused_pid"
refused_status=$?
set -e
[ "$refused_status" -ne 0 ] || fail "a server started on a schema at version $newer"
want="the schema is at version $newer, newer than this build's $migrations: upgrade kenning"
grep -qF "$want" "$work/refused.log" || fail "the refusal said: $(cat "$work/refused.log")"
echo "deployment-check:   refused (exit status $refused_status): $(grep -F "$want" "$work/refused.log")"
stopped upgraded

begin "3. nginx: /v1/ready says 503 while the database refuses connections"
su_psql -c 'ALTER DATABASE kenning ALLOW_CONNECTIONS false' \
    -c "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = 'kenning'" >/dev/null
expect 503 "$(direct a /v1/ready -D "$work/ready.headers")" "server a's /v1/ready without its database"
grep -qi '^retry-after: 5' "$work/ready.headers" || fail "no Retry-After: 5 in $(cat "$work/ready.headers")"
su_psql -c 'ALTER DATABASE kenning ALLOW_CONNECTIONS true' >/dev/null
ready=""
for _ in $(seq 1 100); do
    [ "$(direct a /v1/ready)" = 200 ] && ready=1 && break
    sleep 0.1
done
[ -n "$ready" ] || fail "server a's /v1/ready: still $(body) once the database takes connections again"
# The server's token check reconnects on the request after the one that found its connection
# broken: a few tries.
for try in 1 2 3 4 5; do
    status="$(proxied "$api/memories/1" "${auth[@]}")"
    [ "$status" = 200 ] && break
    [ "$status" = 503 ] || fail "a read through nginx once the database is back: HTTP $status: $(body)"
    echo "deployment-check:   try $try once the database is back: 503 $(body)"
    sleep 0.1
done
expect 200 "$status" "a read through nginx once the database is back"

begin "6. upgrades: with every server stopped, nginx answers 502"
stopped a
expect 502 "$(proxied "$api/memories/1" "${auth[@]}")" "a read through nginx with both servers stopped"

echo "deployment-check: every step passed in ${SECONDS}s"
