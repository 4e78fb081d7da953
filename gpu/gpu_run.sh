#!/usr/bin/env bash
# Runs on the GPU machine, in parts that each fit one device call (10 minutes), with executables
# built on the CPU machine and carried in $BIN (no Halide there): fuselab, fuselab_tests,
# libcupti.so.12, and libfuselab.so at python/fuselab/. Logs and JSON go to $OUT.
#   tests     fuselab_tests (every variant against float64, CUDA included), the CLI's CUDA sweep
#             (tests/test_cli_sweep.py; SWEEP_ARGS, default --all-shapes), the Python package on numpy and on torch
#             tensors, and pipeline-level calls (tests/test_choose.py)
#   sanitize  every CUDA variant through compute-sanitizer (gpu/sanitize_cuda.py; SANITIZE_ARGS
#             passes arguments, e.g. --pipelines softmax,layernorm)
#   overhead  the host cost per call of each way to call add_relu from Python and C
#             (peers/call_overhead.py), alone on the machine: run it first
#   fuselab   `fuselab bench --target cuda` (events and host), then its --cupti run (launches,
#             kernel time) in a second process
#   bench_rows  `fuselab bench --target cuda` of the row reductions alone, a pipeline at a time
#             (ROWS_SCHEDULES: only these strategies; ROWS_BUDGET, ROWS_DEVICE_BUDGET: its timing
#             budgets, default 0.2 and 0.1 s; ROWS_BENCH_S: each pipeline's time limit)
#   rows_grid  the row strategies that win somewhere on a dense grid of row lengths, a pipeline at
#             a time (ROWS_SCHEDULES, ROWS_BENCH_S, ROWS_BUDGET, ROWS_DEVICE_BUDGET), unchecked
#   rows      the row reductions' checks, each step under a time limit: their fuselab_tests,
#             the CLI sweep (2 shapes a variant) and test_rows.py
#   peers     PyTorch peers (peers/peers.py: eager, compile, reduce-overhead, max-autotune,
#             dynamic; cudnn.benchmark on; ~8 minutes, bounded by its --time-budget of 540 s);
#             PEERS_ARGS passes arguments (e.g. --workload lists, --skip-autotune)
#   peers1, peers2  the same in two device calls: the pointwise and stencil workloads (~2.5 min),
#             then the convs with max-autotune (~6 min); each merges the halves there are into
#             peers.json (peers.py --merge)
#   peers_rows, peers_rows_autotune  the row reductions' peers (eager, compile, Liger; then
#             max-autotune), each under PEERS_BUDGET seconds (default 420)
#   torch     fuselab called from PyTorch and captured in CUDA graphs (peers/torch_bench.py)
#   sweeps    the conv under several JIT register caps, and the launch-cost sweep (seed §1.5)
#   ncu       Nsight Compute's DRAM bytes for every CUDA variant (gpu/ncu_run.sh), resumable
#   stalls    the conv's issue rate and warp stalls (gpu/ncu_stalls.sh)
# Then python3 results/report.py --run DIR --out results on the folder they wrote.
# ARCHIVE=FILE also packs $OUT into FILE at the end: the device tool brings back at most 8 files.
# Exits 1 when any step of any part failed (each is listed at the end), else 0. CUDA skips are
# failures here (FUSELAB_REQUIRE_CUDA=1): this machine has a GPU.
set -uo pipefail
BIN="${BIN:-.carry}"
OUT="${OUT:-/tmp/fuselab-gpu}"
ARCHIVE="${ARCHIVE:-}"
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
export FUSELAB_REQUIRE_CUDA=1
failed=()
# step NAME: records the status of the command that just ran ($?) under NAME.
step() {
    local rc=$?
    echo "$1: exit $rc"
    [ "$rc" -eq 0 ] || failed+=("$1 (exit $rc)")
}
# --cupti's library: the copy carried beside the executables, unless the caller chose one.
if [ -z "${FUSELAB_CUPTI_LIB:-}" ] && [ -f "$BIN/libcupti.so.12" ]; then
    export FUSELAB_CUPTI_LIB="$BIN/libcupti.so.12"
fi
machine() {
    {
        date -u +%Y-%m-%dT%H:%M:%SZ
        nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
        grep -m1 "model name" /proc/cpuinfo; nproc
        python3 -c 'import torch, sys; print("python", sys.version.split()[0], "torch", torch.__version__)'
    } > "$OUT/machine$1.txt" 2>&1
}
for part in "$@"; do
    t0=$SECONDS
    case "$part" in
    tests)
        machine ""
        "$BIN/fuselab_tests" > "$OUT/tests.log" 2>&1
        step fuselab_tests; echo "($(grep -cE '^\[       OK \]' "$OUT/tests.log") ok)"
        grep -E "^\[  (PASSED|FAILED|SKIPPED) " "$OUT/tests.log" | head -20
        python3 tests/test_cli_sweep.py "$BIN/fuselab" --target cuda ${SWEEP_ARGS:---all-shapes} --jobs "${SWEEP_JOBS:-8}" > "$OUT/sweep_cuda.log" 2>&1
        step "CLI sweep (cuda)"; tail -2 "$OUT/sweep_cuda.log"
        python3 tests/test_python.py "$BIN/fuselab" > "$OUT/python.log" 2>&1
        step "Python package (numpy)"; tail -3 "$OUT/python.log"
        python3 tests/test_torch.py > "$OUT/torch_tests.log" 2>&1
        step "Python package (torch)"; tail -4 "$OUT/torch_tests.log"
        FUSELAB_LIBRARY=python/fuselab/libfuselab.so python3 tests/test_torch_ext.py > "$OUT/torch_ext_tests.log" 2>&1
        step "torch ops' C++ kernels"; tail -3 "$OUT/torch_ext_tests.log"
        FUSELAB_LIBRARY=python/fuselab/libfuselab.so python3 tests/test_rows.py > "$OUT/rows_tests.log" 2>&1
        step "row reductions (Python, torch)"; tail -3 "$OUT/rows_tests.log"
        FUSELAB_LIBRARY=python/fuselab/libfuselab.so python3 tests/test_choose.py "$BIN/fuselab" > "$OUT/choose_tests.log" 2>&1
        step "pipeline-level calls (choose)"; tail -3 "$OUT/choose_tests.log"
        ;;
    sanitize)
        # shellcheck disable=SC2086
        python3 gpu/sanitize_cuda.py --bin "$BIN/fuselab" --out "$OUT/sanitizers" ${SANITIZE_ARGS:-} \
            > "$OUT/sanitize.log" 2>&1
        step sanitizers; tail -4 "$OUT/sanitize.log"
        ;;
    overhead)
        machine "_overhead"
        FUSELAB_LIBRARY=python/fuselab/libfuselab.so python3 peers/call_overhead.py \
            --json "$OUT/call_overhead.json" > "$OUT/call_overhead.txt" 2>&1
        step call_overhead; cat "$OUT/call_overhead.txt"
        ;;
    fuselab)
        machine "_bench"
        # shellcheck disable=SC2086
        "$BIN/fuselab" bench --target cuda --json "$OUT/bench_cuda.json" ${BENCH_ARGS:-} \
            2>"$OUT/bench_cuda.err" > "$OUT/bench_cuda.txt"
        step bench; grep -cE " ok | WRONG | ERROR" "$OUT/bench_cuda.txt"; tail -3 "$OUT/bench_cuda.txt"
        [ -z "${SKIP_CUPTI:-}" ] || { echo "== $part: $((SECONDS - t0)) s (no --cupti run)"; continue; }
        # Launches and kernel-only time in a second process, so that no CUPTI is loaded while the
        # first is timed (report.py merges them).
        "$BIN/fuselab" bench --target cuda --cupti --no-check --budget 0.05 --device-budget 0.01 \
            --json "$OUT/bench_cupti.json" 2>>"$OUT/bench_cuda.err" > "$OUT/bench_cupti.txt"
        step "bench --cupti"; grep -c MISMATCH "$OUT/bench_cupti.txt"
        ;;
    bench_rows)
        # The row reductions alone, a pipeline at a time (each under ROWS_BENCH_S, default 200 s:
        # preparing 2^26 inputs takes seconds a size and type, and one pipeline's three
        # strategies in three types outlasted 60 s on 2026-12-02), every strategy or those in
        # ROWS_SCHEDULES, at the six GPU sizes, timed (checked against float64 unless BENCH_ARGS
        # says --no-check).
        machine "_bench_rows"
        sel=""
        for s in ${ROWS_SCHEDULES:-}; do sel+=" --schedule $s"; done
        for p in softmax rmsnorm_residual layernorm; do
            # shellcheck disable=SC2086
            timeout "${ROWS_BENCH_S:-200}" "$BIN/fuselab" bench --target cuda --pipeline "$p" $sel \
                --budget "${ROWS_BUDGET:-0.2}" --device-budget "${ROWS_DEVICE_BUDGET:-0.1}" \
                --json "$OUT/bench_$p.json" ${BENCH_ARGS:-} 2> "$OUT/bench_$p.err" > "$OUT/bench_$p.txt"
            step "bench_rows $p"; tail -2 "$OUT/bench_$p.txt"
        done
        ;;
    rows_grid)
        # The row strategies that win somewhere (ROWS_SCHEDULES, default warp_row block_row
        # block_row_wide) on a denser grid of row lengths (issue 29: the measured shapes that
        # choose() consults): N = 128 to 262144 (ROWS_GRID) at 2^26 elements a call (M = 2^26 / N,
        # rounded down), and at 16 rows a call (ROWS_GRID_FEW: launch- and wave-bound shapes); each
        # pipeline under ROWS_BENCH_S (the JSON keeps every size finished). Unchecked: the checks
        # are `rows` and `tests`.
        machine "_rows_grid"
        sel=""
        for s in ${ROWS_SCHEDULES:-warp_row block_row block_row_wide}; do sel+=" --schedule $s"; done
        sizes=""
        for n in ${ROWS_GRID:-128 256 512 1024 1536 2048 3072 4096 6144 8192 12288 16384 32768 65536 262144}; do
            sizes+=" --size ${n}x$(( (1 << 26) / n ))"
        done
        for n in ${ROWS_GRID_FEW:-1024 4096 16384 65536}; do sizes+=" --size ${n}x16"; done
        for p in softmax rmsnorm_residual layernorm; do
            # shellcheck disable=SC2086
            timeout "${ROWS_BENCH_S:-200}" "$BIN/fuselab" bench --target cuda --pipeline "$p" $sel $sizes \
                --budget "${ROWS_BUDGET:-0.05}" --device-budget "${ROWS_DEVICE_BUDGET:-0.03}" --no-check \
                --json "$OUT/grid_$p.json" 2> "$OUT/grid_$p.err" > "$OUT/grid_$p.txt"
            step "rows_grid $p"; tail -1 "$OUT/grid_$p.txt"
        done
        ;;
    rows)
        machine "_rows"
        timeout 80 "$BIN/fuselab_tests" --gtest_filter='*softmax*:*rmsnorm*:*layernorm*:Rows/*' \
            > "$OUT/rows_tests.log" 2>&1
        step "fuselab_tests (rows)"; grep -E "^\[  (PASSED|FAILED) " "$OUT/rows_tests.log"
        timeout 150 python3 tests/test_cli_sweep.py "$BIN/fuselab" --target cuda --pipeline softmax \
            --pipeline rmsnorm_residual --pipeline layernorm --shapes 2 --jobs 8 > "$OUT/sweep_rows.log" 2>&1
        step "CLI sweep (rows, cuda)"; tail -2 "$OUT/sweep_rows.log"
        FUSELAB_LIBRARY=python/fuselab/libfuselab.so timeout 60 python3 tests/test_rows.py \
            > "$OUT/rows_python.log" 2>&1
        step "row reductions (Python, torch)"; tail -2 "$OUT/rows_python.log"
        ;;
    peers)
        machine "_peers"
        # shellcheck disable=SC2086
        python3 peers/peers.py --json "$OUT/peers.json" ${PEERS_ARGS:-} 2>"$OUT/peers.err" > "$OUT/peers.txt"
        step peers; tail -3 "$OUT/peers.txt"
        ;;
    peers1 | peers2)
        machine "_peers"
        if [ "$part" = peers1 ]; then
            sel="--workload add_relu --workload pointwise_chain --workload branches --workload branches_indep --workload blur3x3 --workload stencil_chain_k2 --workload stencil_chain_k4 --workload stencil_chain_k8"
        else
            sel="--workload conv_relu_pool --workload two_convs --workload two_convs_indep"
        fi
        # shellcheck disable=SC2086
        python3 peers/peers.py $sel --json "$OUT/$part.json" ${PEERS_ARGS:-} 2>"$OUT/$part.err" > "$OUT/$part.txt"
        step "$part"; tail -3 "$OUT/$part.txt"
        halves=$(for p in peers1 peers2; do [ -f "$OUT/$p.json" ] && echo "$OUT/$p.json"; done)
        # shellcheck disable=SC2086
        python3 peers/peers.py --merge $halves --json "$OUT/peers.json" > "$OUT/peers.txt" 2>>"$OUT/$part.err"
        step "peers.json merge"; echo "from" "$halves"
        ;;
    peers_rows | peers_rows_autotune)
        # The row reductions' peers (eager, compile static, Liger from the carried wheel), then
        # max-autotune at N = 4096 and 65536 in a call of its own.
        machine "_$part"
        if [ "$part" = peers_rows ]; then sel="--skip-autotune"; else sel="--peer torch_compile_max_autotune"; fi
        # shellcheck disable=SC2086
        python3 peers/peers.py --workload rows $sel --time-budget "${PEERS_BUDGET:-420}" \
            --json "$OUT/$part.json" ${PEERS_ARGS:-} 2>"$OUT/$part.err" > "$OUT/$part.txt"
        step "$part"; tail -3 "$OUT/$part.txt"
        ;;
    torch)
        python3 peers/torch_bench.py --json "$OUT/torch_bench.json" 2>"$OUT/torch_bench.err" > "$OUT/torch_bench.txt"
        step torch_bench; tail -3 "$OUT/torch_bench.txt"
        ;;
    sweeps)
        # Register pressure (seed §1.6): the largest fused kernel under several JIT register caps.
        for r in 64 96 128 168 255; do
            HL_CUDA_JIT_MAX_REGISTERS=$r "$BIN/fuselab" bench --target cuda --pipeline conv_relu_pool \
                --schedule tiled --no-check --budget 0.3 --json "$OUT/bench_cuda_regs$r.json" \
                2>>"$OUT/bench_cuda.err" >> "$OUT/bench_cuda_regs.txt"
            step "bench at $r registers"
        done
        # Launch cost against traffic (seed §1.5): add_relu and pointwise_chain, N = 2^10..2^28.
        for p in add_relu pointwise_chain; do
            for e in 10 12 14 16 18 20 22 24 26 28; do
                "$BIN/fuselab" bench --target cuda --pipeline "$p" --size $((1 << e)) --no-check --budget 0.2 \
                    --device-budget 0.1 --json "/tmp/sweep_${p}_$e.json" > /dev/null 2>>"$OUT/bench_cuda.err"
                step "bench $p 2^$e"
            done
        done
        python3 -c 'import json, glob, sys; json.dump([r for f in sorted(glob.glob("/tmp/sweep_*.json")) for r in json.load(open(f))["records"]], sys.stdout, indent=1)' > "$OUT/sweep.json"
        step sweep.json
        ;;
    ncu)
        bash gpu/ncu_run.sh "$OUT/ncu"
        step ncu
        python3 results/ncu_table.py "$OUT/ncu" > "$OUT/ncu.md"
        step ncu_table
        ;;
    stalls)
        bash gpu/ncu_stalls.sh "$OUT/stalls" conv_relu_pool 3840x2160x3x16 \
            tiled shared_weights hand_const hand_global > "$OUT/stalls.md"
        step stalls
        ;;
    *) echo "gpu_run.sh: unknown part '$part'"; failed+=("unknown part '$part'") ;;
    esac
    echo "== $part: $((SECONDS - t0)) s"
done
[ -z "$ARCHIVE" ] || tar czf "$ARCHIVE" -C "$OUT" .
if [ ${#failed[@]} -gt 0 ]; then
    echo "gpu_run.sh: ${#failed[@]} steps failed:"; printf '  %s\n' "${failed[@]}"
    exit 1
fi
echo "gpu_run.sh: every step passed"
