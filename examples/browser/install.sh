#!/usr/bin/env bash
# What the browser page's tests need: Debian's chromium (installed by apt when missing and
# CHROMIUM_PATH names none) and the npm packages pinned in package-lock.json. Needs the network
# and the disk, hardly the processors: .ci/run starts it while the workspace builds.
set -euo pipefail
cd "$(dirname "$0")"

if [ -z "${CHROMIUM_PATH:-}" ] && ! command -v chromium >/dev/null; then
    apt-get update && apt-get install -y chromium
fi
npm ci --no-audit --no-fund --loglevel=error
