#!/usr/bin/env bash
# Builds the fuzz targets with cargo-afl and fuzzes each for SECONDS (default 60).
# Prints execs_done and saved_crashes per target; exits non-zero if any target saved a crash.
# `run.sh --build-only` builds the targets and stops (CI builds them while its tests run).
set -euo pipefail

BUILD_ONLY=false
if [[ "${1:-}" == --build-only ]]; then
    BUILD_ONLY=true
    shift
fi
SECONDS_PER_TARGET="${1:-60}"
TARGETS=(${FUZZ_TARGETS:-validate scan select context})

cd "$(dirname "$0")"
export CARGO_TARGET_DIR="$PWD/target"
# Running as root in a container: no CPU governor to check, core_pattern may pipe to a handler,
# and there is no terminal for the status screen.
export AFL_SKIP_CPUFREQ=1
export AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1
export AFL_NO_UI=1
export AFL_NO_AFFINITY=1

cargo afl build --release --bins
if "$BUILD_ONLY"; then
    exit 0
fi

status=0
for t in "${TARGETS[@]}"; do
    rm -rf "out/$t"
    mkdir -p "out/$t"
    echo "== fuzzing $t for ${SECONDS_PER_TARGET}s"
    cargo afl fuzz -V "$SECONDS_PER_TARGET" -i "seeds/$t" -o "out/$t" "target/release/$t" \
        > "out/$t/afl.log" 2>&1 || { echo "afl-fuzz failed for $t:"; tail -30 "out/$t/afl.log"; status=2; continue; }
done

echo
printf '%-10s %14s %14s\n' target execs_done saved_crashes
for t in "${TARGETS[@]}"; do
    stats="out/$t/default/fuzzer_stats"
    if [[ ! -f "$stats" ]]; then
        printf '%-10s %14s %14s\n' "$t" "-" "no stats"
        status=2
        continue
    fi
    execs=$(awk -F' *: *' '$1=="execs_done"{print $2}' "$stats")
    crashes=$(awk -F' *: *' '$1=="saved_crashes"{print $2}' "$stats")
    printf '%-10s %14s %14s\n' "$t" "$execs" "$crashes"
    if [[ "${crashes:-0}" != "0" ]]; then
        status=1
        for f in "out/$t/default/crashes/"id:*; do
            [[ -f "$f" ]] || continue
            echo "  crash $f: $(od -An -tx1 -v "$f" | tr -d ' \n' | head -c 400)"
        done
    fi
done
exit "$status"
