#!/usr/bin/env bash
# The row pipelines' schedule search on the GPU machine (tools/row_search.cpp), then Nsight
# Compute on the shipped leaders and on the search's winners. Carries its own Halide: run
# `bash gpu/row_search.sh --pack` here first (the search binary and the venv's libHalide.so,
# xz-packed, about 45 MB, into .carry_search/; name .carry_search in the device tool's `carry`).
# Mind the time: every candidate's first call waits for the driver to compile its PTX, and the
# block forms take milliseconds a call at N = 256, so the whole grid over every pipeline, type and
# N outlasts one device call (10 minutes); narrow it (SEARCH_NS, SEARCH_ARGS="--dtypes ...
# --only ...") and keep SEARCH_TIMEOUT and NCU_TIMEOUT inside the call.
#   SEARCH_PROCS  processes compiling at once (default 6; their GPU timing takes turns)
#   SEARCH_NS     row lengths (default the suite's six and 2048, 8192)
#   SEARCH_ARGS   more arguments for every search process (e.g. --dtypes float32,bfloat16)
#   NCU_ELEMENTS  elements a call under Nsight Compute (default 2^24)
# Works in $ROW_SEARCH_DIR (default /tmp/row-search): search.csv (every row), search.md (the
# winners), ncu_*.csv. At the end, or when killed, packs that folder into $OUT/row_search.tar.gz
# and copies search.md beside it: the device tool brings back at most 8 files from $OUT, so
# nothing else is written there (the first call of 2026-12-02 lost its main table that way).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
carry="$root/.carry_search"
if [ "${1:-}" = "--pack" ]; then
    build="${2:-$root/build}"
    cmake --build "$build" --target fuselab_row_search >&2 || exit 1
    rm -rf "$carry" && mkdir -p "$carry"
    cp "$build/tools/fuselab_row_search" "$carry/"
    xz -T0 -6 -c "$root/.venv/halide/lib64/libHalide.so" > "$carry/libHalide.so.xz"
    du -sh "$carry"
    exit 0
fi
dest="${OUT:-/tmp/row-search-out}"
OUT="${ROW_SEARCH_DIR:-/tmp/row-search}"
mkdir -p "$OUT" "$dest" /tmp/hl
pack() {
    tar czf "$dest/row_search.tar.gz" -C "$OUT" --exclude row_search.tar.gz .
    [ -f "$OUT/search.md" ] && cp "$OUT/search.md" "$dest/"
}
trap pack EXIT
trap 'exit 143' TERM INT
export PYTHONUNBUFFERED=1
xz -dc "$carry/libHalide.so.xz" > /tmp/hl/libHalide.so || exit 1
export LD_LIBRARY_PATH=/tmp/hl${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
bin="$carry/fuselab_row_search"
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    grep -m1 "model name" /proc/cpuinfo; nproc
} > "$OUT/machine.txt" 2>&1
t0=$SECONDS
P="${SEARCH_PROCS:-6}"
search() {  # NAME ARGS...: P processes, each a share of the (pipeline, dtype) pairs
    local name="$1"
    shift
    for k in $(seq 0 $((P - 1))); do
        timeout "${SEARCH_TIMEOUT:-330}" "$bin" --shard "$k/$P" --lock /tmp/row_search.lock "$@" \
            > "$OUT/${name}_$k.csv" 2> "$OUT/${name}_$k.err" &
    done
    wait
    { head -1 "$OUT/${name}_0.csv"; for k in $(seq 0 $((P - 1))); do tail -n +2 "$OUT/${name}_$k.csv"; done; } \
        > "$OUT/$name.csv"
    cat "$OUT/${name}"_*.err > "$OUT/$name.err"
    rm -f "$OUT/${name}"_[0-9]*.csv "$OUT/${name}"_[0-9]*.err
    echo "$name: $((SECONDS - t0)) s, $(wc -l < "$OUT/$name.csv") rows"
}
# shellcheck disable=SC2086
search search --ns "${SEARCH_NS:-256,1024,2048,4096,8192,16384,65536,262144}" ${SEARCH_ARGS:-}
python3 "$root/tools/row_search_report.py" "$OUT/search.csv" > "$OUT/search.md"
head -70 "$OUT/search.md"

# Nsight Compute: the shipped leaders (today's strategies) and the winners, float32 and bfloat16,
# at N = 256, 4096 and 65536, one kernel each (a fused strategy's one launch).
ncu_run() {  # NAME CASES
    local metrics="gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,l1tex__t_bytes.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active"
    timeout "${NCU_TIMEOUT:-100}" ncu --clock-control none --csv --page raw --kernel-name regex:^_kernel \
        --section WarpStateStats --section Occupancy --section LaunchStats --metrics "$metrics" \
        "$bin" --once --no-grid --strategies block_row,warp_row,block_row_wide --elements "${NCU_ELEMENTS:-16777216}" \
        --cases "$2" $3 > "$OUT/ncu_$1.csv" 2> "$OUT/ncu_$1.err"
    echo "ncu $1: exit $?, $(grep -c '^"' "$OUT/ncu_$1.csv") lines"
}
leaders=""
for op in softmax rmsnorm_residual layernorm; do
    for dt in float32 bfloat16; do
        leaders+="$op:$dt:256:warp_row,$op:$dt:4096:block_row,$op:$dt:4096:warp_row,$op:$dt:65536:block_row_wide,"
    done
done
ncu_run leaders "$leaders" "--ns 256,4096,65536"
winners=$(python3 "$root/tools/row_search_report.py" "$OUT/search.csv" --cases --ns 256,4096,65536 --dtypes float32,bfloat16)
# The winners are grid forms: compile those only (--only), plus the shipped ones if they won.
only=$(echo "$winners" | tr ',' '\n' | cut -d: -f4 | sort -u | tr '\n' ',')
echo "winners: $winners"
timeout "${NCU_TIMEOUT:-100}" ncu --clock-control none --csv --page raw --kernel-name regex:^_kernel \
    --section WarpStateStats --section Occupancy --section LaunchStats \
    --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,l1tex__t_bytes.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active \
    "$bin" --once --only "$only" --strategies block_row,warp_row,block_row_wide --elements "${NCU_ELEMENTS:-16777216}" \
    --ns 256,4096,65536 --dtypes float32,bfloat16 --cases "$winners" > "$OUT/ncu_winners.csv" 2> "$OUT/ncu_winners.err"
echo "ncu winners: exit $?, $(grep -c '^"' "$OUT/ncu_winners.csv") lines"
echo "== total $((SECONDS - t0)) s"
