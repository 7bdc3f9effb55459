#!/usr/bin/env bash
# Runs the service tests on PostgreSQL: starts one throwaway cluster (postgres-throwaway.sh),
# points every test at it (KENNING_TEST_BACKEND=postgres, KENNING_TEST_POSTGRES=its socket
# directory: each data directory a test uses gets a database of its own), runs
# `cargo test ARGS...` (by default every integration test of the workspace, which are the host's
# and the end-to-end tests: the unit tests never open a store), and stops the cluster. The whole
# workspace is selected so that features unify as in `cargo test --workspace` and nothing is
# compiled again.
set -euo pipefail
cd "$(dirname "$0")/.."

coproc cluster { exec bash scripts/postgres-throwaway.sh; }
read -r ready socket_dir <&"${cluster[0]}" || true
if [ "${ready:-}" != ready ]; then
    echo "the throwaway PostgreSQL cluster did not start" >&2
    exit 1
fi
if [ "$#" -eq 0 ]; then
    set -- --workspace --test '*' --locked
fi
status=0
KENNING_TEST_BACKEND=postgres KENNING_TEST_POSTGRES="$socket_dir" cargo test "$@" || status=$?
# Closing the script's standard input stops and deletes the cluster.
exec {cluster[1]}>&-
wait "$cluster_PID" 2>/dev/null || true
exit "$status"
