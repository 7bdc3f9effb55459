#!/usr/bin/env bash
# The browser page's tests, with what they need: Debian's chromium (installed by apt when
# missing and CHROMIUM_PATH names none), the npm packages pinned in package-lock.json, the page
# built from the policy component. Run after `cargo test --workspace`, which builds the
# component and target/debug/kenning that the tests compare the page with. Nothing here skips:
# a browser that cannot start fails the run.
set -euo pipefail
cd "$(dirname "$0")"

if [ -z "${CHROMIUM_PATH:-}" ] && ! command -v chromium >/dev/null; then
    apt-get update && apt-get install -y chromium
fi
npm ci --no-audit --no-fund --loglevel=error
npm test
