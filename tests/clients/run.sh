#!/usr/bin/env bash
# The official MCP SDK clients, TypeScript (mcp_client.mjs) and Python (mcp_client.py), against
# kenning over stdio (a spawned `kenning mcp`) and over streamable HTTP (`kenning serve`'s
# /v1/mcp), as desktop and agent clients reach it; and `--metrics-bind`'s scrape read by
# Prometheus' Python client parser (metrics_scrape.py). Installs the SDKs itself (npm, and pip into
# a fresh virtual environment).
#
#     tests/clients/run.sh [KENNING]        # default: target/debug/kenning
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
kenning="$(realpath "${1:-$here/../../target/debug/kenning}")"
work="$(mktemp -d)"
servers=()
cleanup() {
    [ "${#servers[@]}" -gt 0 ] && kill "${servers[@]}" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT

(cd "$here" && npm ci --no-audit --no-fund --silent)
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install --quiet --disable-pip-version-check -r "$here/requirements.txt"

# Two servers on one data directory: one for both clients' HTTP passes, on an agent's token
# (and an external one's, whose writes the TypeScript client's user reviews through elicitation,
# which --elicitation-review allows); and one as served by default, where an external token's
# client may not settle its own writes.
data="$work/http"
token="$("$kenning" --data-dir "$data" token create --subject profile:me --role agent)"
external="$("$kenning" --data-dir "$data" token create --subject profile:me --role external)"
# `serve NAME ARGS...` starts one, and sets `served` to its /v1/mcp.
serve() {
    local name="$1"
    shift
    "$kenning" --data-dir "$data" serve --port 0 "$@" >"$work/$name.out" 2>"$work/$name.log" &
    servers+=($!)
    for _ in $(seq 200); do
        grep -q 'http://' "$work/$name.out" 2>/dev/null && break
        sleep 0.05
    done
    local base
    base="$(grep -o 'http://[^ ]*' "$work/$name.out" | head -n 1)"
    if [ -z "$base" ]; then
        cat "$work/$name.log" >&2
        echo "kenning serve did not start" >&2
        exit 1
    fi
    served="${base%/v1/}/v1/mcp"
}
serve reviewing --elicitation-review
url="$served"
serve plain
plain_url="$served"
# A third, with Prometheus metrics on an address of their own, scraped after some traffic.
human="$("$kenning" --data-dir "$data" token create --subject profile:me --role human)"
serve metrics --metrics-bind 127.0.0.1:0
for _ in $(seq 100); do
    grep -q '/metrics' "$work/metrics.out" && break
    sleep 0.05
done
metrics_url="$(grep -o 'http://[^ ]*/metrics' "$work/metrics.out")"

status=0
"$work/venv/bin/python" "$here/metrics_scrape.py" "${served%mcp}" "$metrics_url" "$human" || status=$?
node "$here/mcp_client.mjs" "$kenning" "$work/ts" "$url" "$token" "$external" "$plain_url" || status=$?
"$work/venv/bin/python" "$here/mcp_client.py" "$kenning" "$work/py" "$url" "$token" || status=$?
if [ "$status" -ne 0 ]; then
    grep -h '"ERROR"' "$work"/*.log >&2 || true
fi
exit "$status"
