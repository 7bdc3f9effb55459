#!/usr/bin/env bash
# The browser page's tests: installs what they need (install.sh) unless told it is there
# (KENNING_BROWSER_DEPS=installed), builds the page from the policy component and runs them. Run
# after `cargo test --workspace`, which builds the component and target/debug/kenning that the
# tests compare the page with. Nothing here skips: a browser that cannot start fails the run.
set -euo pipefail
cd "$(dirname "$0")"

if [ "${KENNING_BROWSER_DEPS:-}" != installed ]; then
    ./install.sh
fi
npm test
