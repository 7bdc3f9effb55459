#!/usr/bin/env bash
# Builds the JavaScript policy as a component: installs componentize-js (pinned in
# package-lock.json) and writes policy.wasm beside this script. Every WASI feature is disabled,
# so the component imports only the contract's types, as the host requires of contract 0.2.0
# and later. The policy targets contract 0.3.0, whose candidates travel as columns (see policy.js).
set -euo pipefail
cd "$(dirname "$0")"
npm ci --no-audit --no-fund --loglevel=error
npx componentize-js policy.js \
  --wit ../../contract/wit/since_v0.3.0 \
  --world-name memory-policy \
  --disable stdio random clocks http fetch-event \
  --out policy.wasm
echo "built $(pwd)/policy.wasm"
