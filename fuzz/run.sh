#!/usr/bin/env bash
# Builds the fuzz targets with cargo-afl and fuzzes each for SECONDS (default 60).
# Prints execs_done, saved_crashes and saved_hangs per target; exits non-zero if any target
# saved a crash, saved an input that still takes more than HANG_MS (default 1000) when run again
# on its own (a hang the machine's load did not make), or executed nothing.
# `run.sh --build-only` builds the targets and stops (CI builds them while its tests run);
# `run.sh --report-only` prints the last run's table and exits as that run would have.
set -euo pipefail

BUILD_ONLY=false
REPORT_ONLY=false
if [[ "${1:-}" == --build-only ]]; then
    BUILD_ONLY=true
    shift
elif [[ "${1:-}" == --report-only ]]; then
    # The table (and the exit status) of the last run's out/, without building or fuzzing.
    REPORT_ONLY=true
    shift
fi
SECONDS_PER_TARGET="${1:-60}"
TARGETS=(${FUZZ_TARGETS:-validate scan select context})
# An input that runs longer than this is a hang (afl-fuzz's -t); the policy's parsers take
# microseconds.
HANG_MS="${HANG_MS:-1000}"

cd "$(dirname "$0")"
export CARGO_TARGET_DIR="$PWD/target"
# Running as root in a container: no CPU governor to check, core_pattern may pipe to a handler,
# and there is no terminal for the status screen.
export AFL_SKIP_CPUFREQ=1
export AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1
export AFL_NO_UI=1
export AFL_NO_AFFINITY=1

status=0
if ! "$REPORT_ONLY"; then
    cargo afl build --release --bins
    if "$BUILD_ONLY"; then
        exit 0
    fi

    for t in "${TARGETS[@]}"; do
        rm -rf "out/$t"
        mkdir -p "out/$t"
        echo "== fuzzing $t for ${SECONDS_PER_TARGET}s"
        cargo afl fuzz -V "$SECONDS_PER_TARGET" -t "$HANG_MS" -i "seeds/$t" -o "out/$t" "target/release/$t" \
            > "out/$t/afl.log" 2>&1 || { echo "afl-fuzz failed for $t:"; tail -30 "out/$t/afl.log"; status=2; continue; }
    done
fi

echo
printf '%-10s %14s %14s %12s\n' target execs_done saved_crashes saved_hangs
for t in "${TARGETS[@]}"; do
    stats="out/$t/default/fuzzer_stats"
    if [[ ! -f "$stats" ]]; then
        printf '%-10s %14s %14s %12s\n' "$t" "-" "no stats" "-"
        status=2
        continue
    fi
    execs=$(awk -F' *: *' '$1=="execs_done"{print $2}' "$stats")
    crashes=$(awk -F' *: *' '$1=="saved_crashes"{print $2}' "$stats")
    hangs=$(awk -F' *: *' '$1=="saved_hangs"{print $2}' "$stats")
    printf '%-10s %14s %14s %12s\n' "$t" "$execs" "$crashes" "$hangs"
    if [[ "${execs:-0}" == "0" ]]; then
        echo "  $t executed nothing"
        status=2
    fi
    if [[ "${crashes:-0}" != "0" ]]; then
        status=1
        for f in "out/$t/default/crashes/"id:*; do
            [[ -f "$f" ]] || continue
            echo "  crash $f: $(od -An -tx1 -v "$f" | tr -d ' \n' | head -c 400)"
        done
    fi
    # A hang afl-fuzz saved is run again alone: one that still overruns fails the run, one that
    # does not was the machine's load, and is said so.
    for f in "out/$t/default/hangs/"id:*; do
        [[ -f "$f" ]] || continue
        rc=0
        timeout "$(awk -v ms="$HANG_MS" 'BEGIN { printf "%.3f", ms / 1000 }')" \
            "target/release/$t" <"$f" >/dev/null 2>&1 || rc=$?
        if [[ "$rc" == 124 ]]; then
            status=1
            echo "  hang $f: $(od -An -tx1 -v "$f" | tr -d ' \n' | head -c 400)"
        else
            echo "  hang $f did not recur alone (the machine's load): not counted"
        fi
    done
done
exit "$status"
