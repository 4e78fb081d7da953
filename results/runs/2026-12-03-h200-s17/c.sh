#!/usr/bin/env bash
# s17's third call on the H200 (after `bash gpu/carry.sh`; carry .carry):
#   1. the grid b.sh's limits cut: rmsnorm_residual at N = 12288 .. 262144, softmax and
#      layernorm at 131072 and 262144, every fused row strategy; and staged_row_8k, now holding
#      rows up to 192 KB in the three pipelines, at N = 8192 .. 65536;
#   2. the CUDA tests but the rows' (b.sh ran those with this runtime);
#   3. every CUDA variant through `fuselab run`: the row pipelines at 2 shapes each, the others
#      at 1 shape (no default size: 2^28-element files take the call's time).
set -uo pipefail
bash gpu/carry.sh --unpack || exit 1
export FUSELAB_REQUIRE_CUDA=1 PYTHONUNBUFFERED=1
mkdir -p /tmp/c
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    cat .carry/commit .carry/status
} > "$OUT/machine.txt" 2>&1
step() { echo "$1: exit $2 at $SECONDS s" >> "$OUT/log.txt"; }
sel=""
for s in warp_regs_1k warp_row block_row block_row_wide block_row_2k block_row_4k staged_row_2k \
    staged_row_8k staged_row_wide; do sel+=" --schedule $s"; done
sizes() { for n in "$@"; do printf -- " --size %sx%s" "$n" $(( (1 << 26) / n )); done; }
# shellcheck disable=SC2046,SC2086
timeout 80 .carry/fuselab bench --target cuda --pipeline rmsnorm_residual $sel \
    $(sizes 12288 16384 24576 32768 65536 131072 262144) --budget 0.03 --device-budget 0.015 \
    --no-check --json /tmp/c/grid_rmsnorm_residual.json 2>> /tmp/c/grid.log | tail -1 >> "$OUT/log.txt"
step "grid rmsnorm_residual" "${PIPESTATUS[0]}"
for p in softmax layernorm; do
    # shellcheck disable=SC2046,SC2086
    timeout 35 .carry/fuselab bench --target cuda --pipeline $p $sel $(sizes 131072 262144) \
        --budget 0.03 --device-budget 0.015 --no-check --json /tmp/c/grid_$p.json \
        2>> /tmp/c/grid.log | tail -1 >> "$OUT/log.txt"
    step "grid $p" "${PIPESTATUS[0]}"
    # shellcheck disable=SC2046
    timeout 30 .carry/fuselab bench --target cuda --pipeline $p --schedule staged_row_8k \
        $(sizes 8192 12288 16384 24576 32768 65536) --budget 0.03 --device-budget 0.015 \
        --no-check --json /tmp/c/staged8k_$p.json 2>> /tmp/c/grid.log | tail -1 >> "$OUT/log.txt"
    step "staged_row_8k $p" "${PIPESTATUS[0]}"
done
timeout 190 .carry/fuselab_tests --gtest_filter='-*softmax*:*rmsnorm*:*layernorm*:Rows/*' \
    > /tmp/c/tests.log 2>&1
step "fuselab_tests (all but the rows)" $?
grep -E "^\[  (PASSED|FAILED|SKIPPED) |tests? from .* ran|^\[  FAILED" /tmp/c/tests.log | tail -8 >> "$OUT/log.txt"
timeout 160 python3 tests/test_cli_sweep.py .carry/fuselab --target cuda --pipeline softmax \
    --pipeline rmsnorm_residual --pipeline layernorm --shapes 2 --jobs 14 > /tmp/c/sweep_rows.log 2>&1
step "CLI sweep (rows, cuda)" $?
tail -2 /tmp/c/sweep_rows.log >> "$OUT/log.txt"
others=""
for p in add_relu conv_relu_pool pointwise_chain branches branches_indep blur3x3 \
    stencil_chain_k2 stencil_chain_k4 stencil_chain_k8 two_convs two_convs_indep; do
    others+=" --pipeline $p"
done
# shellcheck disable=SC2086
timeout 70 python3 tests/test_cli_sweep.py .carry/fuselab --target cuda $others --shapes 1 \
    --no-default-size --jobs 16 > /tmp/c/sweep_others.log 2>&1
step "CLI sweep (other pipelines, cuda)" $?
tail -2 /tmp/c/sweep_others.log >> "$OUT/log.txt"
tar czf "$OUT/c.tar.gz" -C /tmp c
cat "$OUT/log.txt"
