#!/usr/bin/env bash
# One call on the GPU machine: the tests, the bench on CUDA (with CUPTI's measured launches and
# kernel time, and a register-cap sweep), then the PyTorch peers. Executables come
# prebuilt in $BIN (no Halide there), with libcupti.so.12 beside them; logs go to $OUT.
# Usage: bench/gpu_run.sh all: everything below in turn, then the combined report (report.py)
# into $OUT/report (about 15 minutes on an H200; no chart where matplotlib is missing). Or in
# parts, on one machine: bench/gpu_run.sh fuselab (with the tests, unless SKIP_TESTS=1; or
# bench/gpu_run.sh tests alone), then bench/gpu_run.sh peers (and, for Nsight
# Compute's DRAM bytes, bench/gpu_run.sh ncu [PIPELINE...], resumable; for the conv's issue
# rate and warp stalls, bench/gpu_run.sh stalls); then
# python3 bench/report.py --run DIR --out bench/results on the folder they wrote.
# ARCHIVE=FILE also packs $OUT into FILE at the end: the device tool brings back only a limited
# number of files, and ncu alone writes four per run: e.g. ARCHIVE="$OUT/run.tgz" OUT=/tmp/fg bash
# bench/gpu_run.sh fuselab, where the first $OUT is the device tool's folder.
set -uo pipefail
BIN="${BIN:-.carry}"
OUT="${OUT:-/tmp/fuselab-gpu}"
ARCHIVE="${ARCHIVE:-}"
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
# --cupti's library: the copy carried beside the executables, unless the caller chose one.
if [ -z "${FUSELAB_CUPTI_LIB:-}" ] && [ -f "$BIN/libcupti.so.12" ]; then
    export FUSELAB_CUPTI_LIB="$BIN/libcupti.so.12"
fi
case "${1:-fuselab}" in
all)
    shift
    for part in fuselab peers stalls; do OUT="$OUT" BIN="$BIN" ARCHIVE= bash "$0" "$part"; done
    OUT="$OUT" BIN="$BIN" ARCHIVE= bash "$0" ncu "$@"
    python3 bench/report.py --run "$OUT" --out "$OUT/report"
    ;;
fuselab)
    {
        date -u +%Y-%m-%dT%H:%M:%SZ
        nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
        grep -m1 "model name" /proc/cpuinfo; nproc
    } > "$OUT/machine.txt" 2>&1
    # SKIP_TESTS=1 leaves the tests to a separate `bench/gpu_run.sh tests` (a device call's time limit).
    [ -n "${SKIP_TESTS:-}" ] || OUT="$OUT" BIN="$BIN" ARCHIVE= bash "$0" tests
    "$BIN/fuselab" bench --target cuda --json "$OUT/bench_cuda.json" 2>"$OUT/bench_cuda.err" | tee "$OUT/bench_cuda.txt"
    # Launches and kernel-only time in a second process, so that no CUPTI is loaded while the
    # first is timed (report.py merges them).
    "$BIN/fuselab" bench --target cuda --cupti --no-check --budget 0.05 --device-budget 0.01 \
        --json "$OUT/bench_cupti.json" \
        2>>"$OUT/bench_cuda.err" > "$OUT/bench_cupti.txt"
    # Register pressure (seed §1.6): the largest fused kernel under several JIT register caps.
    for r in 64 96 128 168 255; do
        HL_CUDA_JIT_MAX_REGISTERS=$r "$BIN/fuselab" bench --target cuda --pipeline conv_relu_pool \
            --schedule tiled --no-check --budget 0.3 --json "$OUT/bench_cuda_regs$r.json" \
            2>>"$OUT/bench_cuda.err" | tee -a "$OUT/bench_cuda_regs.txt"
    done
    # Launch cost against traffic (seed §1.5): add_relu and pointwise_chain from N = 2^10 to 2^28
    # (report.py fits the host times, host_us).
    for p in add_relu pointwise_chain; do
        for e in 10 12 14 16 18 20 22 24 26 28; do
            "$BIN/fuselab" bench --target cuda --pipeline "$p" --size $((1 << e)) --no-check --budget 0.2 \
                --device-budget 0.1 \
                --json "/tmp/sweep_${p}_$e.json" > /dev/null 2>>"$OUT/bench_cuda.err"
        done
    done
    python3 -c 'import json, glob, sys; json.dump([r for f in sorted(glob.glob("/tmp/sweep_*.json")) for r in json.load(open(f))["records"]], sys.stdout, indent=1)' > "$OUT/sweep.json"
    ;;
tests)
    "$BIN/fuselab_tests" 2>&1 | tee "$OUT/tests.log" | grep -E "^\[  (PASSED|FAILED|SKIPPED) |NOTE|Failure" | head -40
    ;;
ncu)
    shift
    bash bench/ncu_run.sh "$OUT/ncu" "$@"
    python3 bench/ncu_table.py "$OUT/ncu" | tee "$OUT/ncu.md"
    ;;
stalls)
    # What limits the conv at its primary size: issue rate and warp stalls, Halide's two fused
    # strategies beside the hand-written kernel with its weights in constant and in global memory.
    bash bench/ncu_stalls.sh "$OUT/stalls" conv_relu_pool 3840x2160x3x16 \
        tiled shared_weights hand_const hand_global | tee "$OUT/stalls.md"
    ;;
peers)
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/machine_peers.txt" 2>&1
    python3 bench/peers.py --json "$OUT/peers.json" 2>"$OUT/peers.err" | tee "$OUT/peers.txt"
    ;;
esac
[ -z "$ARCHIVE" ] || tar czf "$ARCHIVE" -C "$OUT" .
