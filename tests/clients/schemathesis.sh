#!/usr/bin/env bash
# Schemathesis over the OpenAPI document a spawned `kenning serve` serves (/v1/openapi.json), as
# a user's fuzzer reaches it: on a human's token for the subject named in schemathesis.toml, with
# every check (Schemathesis's default; schemathesis.toml says where one is off, and why).
# Bounded in time; any finding fails. Installs Schemathesis itself, pinned
# (requirements-schemathesis.txt), into a fresh virtual environment.
#
#     tests/clients/schemathesis.sh [KENNING]      # default: target/debug/kenning
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

python3 -m venv "$work/venv"
"$work/venv/bin/pip" install --quiet --disable-pip-version-check \
    -r "$here/requirements-schemathesis.txt"

data="$work/data"
token="$("$kenning" --data-dir "$data" token create --subject profile:me --role human 2>/dev/null)"
"$kenning" --data-dir "$data" serve --port 0 >"$work/serve.out" 2>"$work/serve.log" &
server=$!
for _ in $(seq 600); do
    grep -q 'http://' "$work/serve.out" 2>/dev/null && break
    sleep 0.05
done
base="$(grep -o 'http://[^ ]*' "$work/serve.out" | head -n 1)"
if [ -z "$base" ]; then
    cat "$work/serve.log" >&2
    echo "kenning serve did not start" >&2
    exit 1
fi

# The cache of examples Schemathesis keeps stays in the scratch directory, not the checkout.
cd "$work"
"$work/venv/bin/schemathesis" --config-file "$here/schemathesis.toml" \
    run "${base}openapi.json" -H "Authorization: Bearer $token" \
    --max-time "${KENNING_SCHEMATHESIS_SECONDS:-120}" --max-examples 30 --seed "${KENNING_SCHEMATHESIS_SEED:-1}"
