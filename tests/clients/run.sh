#!/usr/bin/env bash
# The official MCP SDK clients, TypeScript (mcp_client.mjs) and Python (mcp_client.py), against
# kenning over stdio (a spawned `kenning mcp`) and over streamable HTTP (`kenning serve`'s
# /v1/mcp), as desktop and agent clients reach it. Installs the SDKs itself (npm, and pip into
# a fresh virtual environment).
#
#     tests/clients/run.sh [KENNING]        # default: target/debug/kenning
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
kenning="$(realpath "${1:-$here/../../target/debug/kenning}")"
work="$(mktemp -d)"
server=""
cleanup() {
    [ -n "$server" ] && kill "$server" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT

(cd "$here" && npm ci --no-audit --no-fund --silent)
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install --quiet --disable-pip-version-check -r "$here/requirements.txt"

# One server for both clients' HTTP passes, on an agent's token (and an external one's, whose
# writes the TypeScript client's user reviews through elicitation).
data="$work/http"
token="$("$kenning" --data-dir "$data" token create --subject profile:me --role agent)"
external="$("$kenning" --data-dir "$data" token create --subject profile:me --role external)"
"$kenning" --data-dir "$data" serve --port 0 >"$work/serve.out" 2>"$work/serve.log" &
server=$!
for _ in $(seq 200); do
    grep -q 'http://' "$work/serve.out" 2>/dev/null && break
    sleep 0.05
done
base="$(grep -o 'http://[^ ]*' "$work/serve.out" | head -n 1)"
if [ -z "$base" ]; then
    cat "$work/serve.log" >&2
    echo "kenning serve did not start" >&2
    exit 1
fi
url="${base%/v1/}/v1/mcp"

status=0
node "$here/mcp_client.mjs" "$kenning" "$work/ts" "$url" "$token" "$external" || status=$?
"$work/venv/bin/python" "$here/mcp_client.py" "$kenning" "$work/py" "$url" "$token" || status=$?
if [ "$status" -ne 0 ]; then
    grep '"ERROR"' "$work/serve.log" >&2 || true
fi
exit "$status"
