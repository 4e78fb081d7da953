#!/usr/bin/env bash
# s18's second call on the H200 (same carry as a.sh): the runtime changed (choose.cpp: the first
# input's type names the argument that disagrees), so every C++ test and the CLI's CUDA sweep.
#   1. fuselab_tests: the rows, then everything else;
#   2. the CLI sweep of every CUDA variant: the rows at 2 shapes, the others at 1 (no default
#      size: the 2^26-element files do not fit the call).
set -uo pipefail
bash gpu/carry.sh --unpack || exit 1
export FUSELAB_REQUIRE_CUDA=1 PYTHONUNBUFFERED=1 FUSELAB_LIBRARY=python/fuselab/libfuselab.so
D=/tmp/b
mkdir -p $D
{ date -u +%Y-%m-%dT%H:%M:%SZ; nvidia-smi --query-gpu=name,driver_version --format=csv; cat .carry/commit .carry/status; } > "$OUT/machine.txt" 2>&1
timeout 110 .carry/fuselab_tests --gtest_filter='*softmax*:*rmsnorm*:*layernorm*:Rows/*:Runtime.*:CallPlan.*:ChooseTest.*' \
    > $D/tests_rows.log 2>&1
echo "row tests: exit $? at $SECONDS s: $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' $D/tests_rows.log | tr '\n' ' ')" >> "$OUT/log.txt"
timeout 200 .carry/fuselab_tests --gtest_filter='-*softmax*:*rmsnorm*:*layernorm*:Rows/*:Runtime.*:CallPlan.*:ChooseTest.*' \
    > $D/tests_others.log 2>&1
echo "other tests: exit $? at $SECONDS s: $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' $D/tests_others.log | tr '\n' ' ')" >> "$OUT/log.txt"
grep -hE "^\[  FAILED|Failure" $D/tests_*.log | head -20 >> "$OUT/log.txt"
timeout 100 python3 tests/test_cli_sweep.py .carry/fuselab --target cuda --pipeline softmax \
    --pipeline rmsnorm_residual --pipeline layernorm --shapes 2 --no-default-size --jobs 16 \
    > $D/sweep_rows.log 2>&1
echo "CLI sweep (rows): exit $? at $SECONDS s: $(tail -1 $D/sweep_rows.log)" >> "$OUT/log.txt"
others=""
for p in add_relu conv_relu_pool pointwise_chain branches branches_indep blur3x3 \
    stencil_chain_k2 stencil_chain_k4 stencil_chain_k8 two_convs two_convs_indep; do
    others+=" --pipeline $p"
done
# shellcheck disable=SC2086
timeout 90 python3 tests/test_cli_sweep.py .carry/fuselab --target cuda $others --shapes 1 \
    --no-default-size --jobs 16 > $D/sweep_others.log 2>&1
echo "CLI sweep (others): exit $? at $SECONDS s: $(tail -1 $D/sweep_others.log)" >> "$OUT/log.txt"
tar czf "$OUT/b.tar.gz" -C /tmp b
cat "$OUT/log.txt"
