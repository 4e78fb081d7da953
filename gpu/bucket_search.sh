#!/usr/bin/env bash
# Issue 30's bucket search on the GPU machine: the row forms cut by a constant row-length bucket
# (tools/bucket_cases.py) beside the shipped strategies, in every pipeline and type, and float16
# again with the hardware's conversions (--half native), all through tools/row_search.cpp (JIT,
# checked against float64, timed with device syncs; see gpu/row_search.sh). Carries what
# `bash gpu/row_search.sh --pack` puts in .carry_search/. Leaves $OUT/bucket_search.tar.gz.
#   BUCKET_NS         row lengths of the main search (bucket_cases.py's default)
#   BUCKET_NATIVE_NS  row lengths of the float16 native-conversion search
#   SEARCH_TIMEOUT    seconds each search process may run (default 420)
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
carry="$root/.carry_search"
dest="${OUT:-/tmp/bucket-search-out}"
work=/tmp/bucket-search
mkdir -p "$work" "$dest" /tmp/hl
trap 'tar czf "$dest/bucket_search.tar.gz" -C "$work" .' EXIT
trap 'exit 143' TERM INT
xz -dc "$carry/libHalide.so.xz" > /tmp/hl/libHalide.so || exit 1
export LD_LIBRARY_PATH=/tmp/hl${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
bin="$carry/fuselab_row_search"
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    grep -m1 "model name" /proc/cpuinfo; nproc
} > "$work/machine.txt" 2>&1
t0=$SECONDS
run() {  # NAME PROCS ARGS...: PROCS processes, each a share of the (pipeline, dtype) pairs
    local name="$1" procs="$2"
    shift 2
    for k in $(seq 0 $((procs - 1))); do
        timeout "${SEARCH_TIMEOUT:-420}" "$bin" --shard "$k/$procs" --lock /tmp/row_search.lock "$@" \
            > "$work/${name}_$k.csv" 2> "$work/${name}_$k.err" &
    done
}
# shellcheck disable=SC2046
run main 9 $(python3 "$root/tools/bucket_cases.py" ${BUCKET_NS:+--ns "$BUCKET_NS"})
# shellcheck disable=SC2046
run native 3 --half native $(python3 "$root/tools/bucket_cases.py" --dtypes float16 \
    --ns "${BUCKET_NATIVE_NS:-256,1000,4096,4099,16384}")
wait
for name in main native; do
    { head -1 "$work/${name}_0.csv"; for f in "$work/${name}"_*.csv; do tail -n +2 "$f"; done; } \
        > "$work/$name.csv"
    cat "$work/${name}"_*.err > "$work/$name.err"
    rm -f "$work/${name}"_[0-9]*.csv "$work/${name}"_[0-9]*.err
    echo "$name: $(wc -l < "$work/$name.csv") rows"
done
echo "== total $((SECONDS - t0)) s"
