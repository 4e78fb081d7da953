#!/usr/bin/env bash
# s16's third call (after tests.sh, whose fuselab_tests and sweeps ran past their limits there;
# the harness since lets a row_length variant refuse the workload's default size): the row
# pipelines' fuselab_tests and the runtime's, the CLI sweep of the row pipelines (2 shapes a
# variant) and of the others (1 shape). Each log straight into $OUT.
set -uo pipefail
bash gpu/carry.sh --unpack || exit 1
export FUSELAB_REQUIRE_CUDA=1 PYTHONUNBUFFERED=1
step() { echo "$1: exit $2 at $SECONDS s" | tee -a "$OUT/steps2.txt"; }
timeout 170 .carry/fuselab_tests --gtest_filter='*softmax*:*rmsnorm*:*layernorm*:Rows/*:Runtime.*' \
    > "$OUT/tests2.log" 2>&1
step "fuselab_tests (rows, runtime)" $?
grep -E "^\[  (PASSED|FAILED|SKIPPED) |tests? from .* ran" "$OUT/tests2.log" | tail -4
timeout 210 python3 tests/test_cli_sweep.py .carry/fuselab --target cuda --pipeline softmax \
    --pipeline rmsnorm_residual --pipeline layernorm --shapes 2 --jobs 12 > "$OUT/sweep_rows2.log" 2>&1
step "CLI sweep (rows, cuda)" $?
tail -3 "$OUT/sweep_rows2.log"
others=""
for p in add_relu conv_relu_pool pointwise_chain branches branches_indep blur3x3 stencil_chain_k2 \
    stencil_chain_k4 stencil_chain_k8 two_convs two_convs_indep; do
    others+=" --pipeline $p"
done
# shellcheck disable=SC2086
timeout 100 python3 tests/test_cli_sweep.py .carry/fuselab --target cuda $others --shapes 1 \
    --jobs 12 > "$OUT/sweep_others2.log" 2>&1
step "CLI sweep (other pipelines, cuda)" $?
tail -3 "$OUT/sweep_others2.log"
cat "$OUT/steps2.txt"
