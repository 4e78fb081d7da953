#!/usr/bin/env bash
# Fuzzes fuselab's readers for a bounded time on a copy of fuzz/corpus/ (the committed corpus is
# not modified), then prints the executions count and any crash found.
#   fuzz/run.sh BUILD_DIR SECONDS     (BUILD_DIR configured with -DFUSELAB_FUZZ=ON under Clang)
# Environment: FUZZ_WORK (a directory to keep the run in; default a new temporary one, removed
# after a clean run and kept when the run found something),
# FUZZ_JOBS (parallel jobs, default 1).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
build="${1:?usage: fuzz/run.sh BUILD_DIR SECONDS}"
seconds="${2:?usage: fuzz/run.sh BUILD_DIR SECONDS}"
fuzzer="$build/fuzz/fuselab_fuzz_readers"
[ -x "$fuzzer" ] || { echo "run.sh: no $fuzzer (cmake --build $build --target fuselab_fuzz_readers)" >&2; exit 2; }
work="${FUZZ_WORK:-$(mktemp -d /tmp/fuselab-fuzz.XXXXXX)}"
mkdir -p "$work/corpus" "$work/crashes"
cp -n "$here"/corpus/* "$work/corpus/"
jobs="${FUZZ_JOBS:-1}"
parallel=()
[ "$jobs" -gt 1 ] && parallel=(-jobs="$jobs" -workers="$jobs")
fuzzer="$(cd "$(dirname "$fuzzer")" && pwd)/$(basename "$fuzzer")"
cd "$work"  # libFuzzer's -jobs logs (fuzz-N.log) go here
set +e
# -malloc_limit_mb: any single allocation over 512 MB is a finding (the readers refuse what the
# bytes cannot hold, so a small input never needs that much); -rss_limit_mb likewise for the total.
"$fuzzer" -max_total_time="$seconds" -rss_limit_mb=2048 -malloc_limit_mb=512 -max_len=16384 \
    -timeout=10 -dict="$here/readers.dict" -artifact_prefix="$work/crashes/" \
    -print_final_stats=1 "${parallel[@]}" "$work/corpus" >"$work/log" 2>&1
status=$?
set -e
if [ "$jobs" -gt 1 ]; then cat "$work"/fuzz-*.log >>"$work/log" 2>/dev/null || true; fi
execs=$(grep -h "stat::number_of_executed_units" "$work/log" | awk '{s += $2} END {print s + 0}')
crashes=$(ls "$work/crashes" | wc -l)
if [ "$crashes" -gt 0 ] || [ "$status" -ne 0 ]; then
    echo "fuzz: $crashes crash file(s) in $work/crashes:"; ls -l "$work/crashes"
    grep -h -A30 "ERROR: \|SUMMARY\|fuzz_readers:" "$work/log" | head -60
    echo "fuzz: $execs executions in ${seconds} s (exit status $status); log and corpus in $work"
    exit 1
fi
if [ -n "${FUZZ_WORK:-}" ]; then
    echo "fuzz: $execs executions in ${seconds} s, no crash; log and corpus in $work"
else
    echo "fuzz: $execs executions in ${seconds} s, no crash"
    rm -rf "$work"
fi
