#!/usr/bin/env bash
# The browser page's tests: installs what they need (install.sh) unless told it is there
# (KENNING_BROWSER_DEPS=installed), builds the page from the policy component, builds kenning
# again so that `kenning serve` embeds it (unless KENNING_BIN names a program), and runs them.
# Run after `cargo test --workspace`, which builds the component and target/debug/kenning that
# the tests compare the page with. Nothing here skips: a browser that cannot start fails the run.
set -euo pipefail
cd "$(dirname "$0")"

if [ "${KENNING_BROWSER_DEPS:-}" != installed ]; then
    ./install.sh
fi
node scripts/build.mjs
# The signed-in page's tests run against `kenning serve`, which embeds dist/ when it is built.
if [ -z "${KENNING_BIN:-}" ]; then
    (cd ../.. && cargo build -p kenning-cli --locked)
fi
node --test --test-concurrency=1 test/*.test.mjs
