#!/usr/bin/env bash
# s16's check call on the H200 (after `bash gpu/carry.sh` here; carry .carry): every CUDA test of
# fuselab_tests (the staged strategies and the runtime's row_limit refusal among them), the CLI's
# CUDA sweep (the row pipelines at 2 shapes a variant, the others at 1), the row reductions from
# Python and torch, and the pipeline-level calls. Each log straight into $OUT, each step under a
# time limit, so that a cut call keeps what ran.
set -uo pipefail
bash gpu/carry.sh --unpack || exit 1
export FUSELAB_REQUIRE_CUDA=1 PYTHONUNBUFFERED=1
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    grep -m1 "model name" /proc/cpuinfo; nproc
    python3 -c 'import torch, sys; print("python", sys.version.split()[0], "torch", torch.__version__)'
    cat .carry/commit .carry/status
} > "$OUT/machine.txt" 2>&1
step() { echo "$1: exit $2 at $SECONDS s" | tee -a "$OUT/steps.txt"; }
timeout 180 .carry/fuselab_tests > "$OUT/tests.log" 2>&1
step fuselab_tests $?
grep -E "^\[  (PASSED|FAILED|SKIPPED) |tests? from .* ran" "$OUT/tests.log" | tail -5
timeout 140 python3 tests/test_cli_sweep.py .carry/fuselab --target cuda --pipeline softmax \
    --pipeline rmsnorm_residual --pipeline layernorm --shapes 2 --jobs 8 > "$OUT/sweep_rows.log" 2>&1
step "CLI sweep (rows, cuda)" $?
tail -3 "$OUT/sweep_rows.log"
others=""
for p in add_relu conv_relu_pool pointwise_chain branches branches_indep blur3x3 \
    stencil_chain_k2 stencil_chain_k4 stencil_chain_k8 two_convs two_convs_indep; do
    others+=" --pipeline $p"
done
# shellcheck disable=SC2086
timeout 70 python3 tests/test_cli_sweep.py .carry/fuselab --target cuda $others --shapes 1 \
    --jobs 8 > "$OUT/sweep_others.log" 2>&1
step "CLI sweep (other pipelines, cuda)" $?
tail -3 "$OUT/sweep_others.log"
FUSELAB_LIBRARY=python/fuselab/libfuselab.so timeout 55 python3 tests/test_rows.py \
    > "$OUT/rows_python.log" 2>&1
step "row reductions (Python, torch)" $?
tail -2 "$OUT/rows_python.log"
FUSELAB_LIBRARY=python/fuselab/libfuselab.so timeout 55 python3 tests/test_choose.py .carry/fuselab \
    > "$OUT/choose.log" 2>&1
step "pipeline-level calls (choose)" $?
tail -2 "$OUT/choose.log"
cat "$OUT/steps.txt"
