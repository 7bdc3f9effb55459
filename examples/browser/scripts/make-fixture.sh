#!/usr/bin/env bash
# Makes fixtures/crackme.jsonl, a kenning-memory/1 export of a reverse-engineering subject, with
# the real `kenning` program: every memory of fixtures/memories.tsv is written through the
# `remember` tool by its author (human and agent: NATIVE; external: PENDING; peer:
# INBOUND-PENDING), two of the peer's notes are accepted (FOREIGN), one note is forgotten, and
# the store is exported. The export's timestamps are then spread over four months (a real
# analysis takes weeks, and recency matters to the policy) and the result is checked by
# `kenning import --dry-run`.
#
# Usage: scripts/make-fixture.sh [KENNING]   (default: target/debug/kenning of the repository)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
repo="$(cd "$here/../.." && pwd)"
kenning="${1:-$repo/target/debug/kenning}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export KENNING_HOME="$work/home"

cp "$here/fixtures/crackme.bin" "$work/crackme.bin"
cd "$work"
while IFS=$'\t' read -r author args; do
    "$kenning" call --subject crackme.bin --author "$author" remember "$args" >/dev/null
done < "$here/fixtures/memories.tsv"

# Peer notes 34 and 35 accepted (FOREIGN); 37 forgotten (an obsolete note).
"$kenning" review accept --subject crackme.bin 34 >/dev/null
"$kenning" review accept --subject crackme.bin 35 >/dev/null
"$kenning" forget --subject crackme.bin 37 >/dev/null

"$kenning" export --subject crackme.bin --output raw.jsonl
node "$here/scripts/spread-timestamps.mjs" raw.jsonl > "$here/fixtures/crackme.jsonl"

rm -rf "$KENNING_HOME"
"$kenning" import "$here/fixtures/crackme.jsonl" --subject crackme.bin --dry-run
echo "wrote $here/fixtures/crackme.jsonl"
