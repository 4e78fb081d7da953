#!/usr/bin/env bash
# s17's fourth call (same carry as c.sh): what c.sh's limits cut.
#   1. every row CUDA variant through `fuselab run` at 2 sampled shapes each (no default size:
#      2^26-element .npy files took c.sh's 160 s; every strategy ran at 2^26 elements in the
#      grids of b.sh and c.sh);
#   2. rmsnorm_residual's grid at N = 262144;
#   3. the row pipelines from Python and torch on CUDA tensors (tests/test_rows.py), through
#      fuselab_invoke's lean path.
set -uo pipefail
bash gpu/carry.sh --unpack || exit 1
export FUSELAB_REQUIRE_CUDA=1 PYTHONUNBUFFERED=1
mkdir -p /tmp/d
step() { echo "$1: exit $2 at $SECONDS s" >> "$OUT/log.txt"; }
timeout 120 python3 tests/test_cli_sweep.py .carry/fuselab --target cuda --pipeline softmax \
    --pipeline rmsnorm_residual --pipeline layernorm --shapes 2 --no-default-size --jobs 16 \
    > /tmp/d/sweep_rows.log 2>&1
step "CLI sweep (rows, cuda)" $?
tail -2 /tmp/d/sweep_rows.log >> "$OUT/log.txt"
sel=""
for s in warp_row block_row block_row_wide block_row_2k block_row_4k staged_row_wide; do
    sel+=" --schedule $s"
done
# shellcheck disable=SC2086
timeout 30 .carry/fuselab bench --target cuda --pipeline rmsnorm_residual $sel --size 262144x256 \
    --budget 0.03 --device-budget 0.015 --no-check --json /tmp/d/grid_rmsnorm_residual.json \
    2>> /tmp/d/grid.log | tail -1 >> "$OUT/log.txt"
step "grid rmsnorm_residual 262144" "${PIPESTATUS[0]}"
FUSELAB_LIBRARY=python/fuselab/libfuselab.so timeout 60 python3 tests/test_rows.py \
    > /tmp/d/rows_python.log 2>&1
step "row reductions (Python, torch)" $?
tail -3 /tmp/d/rows_python.log >> "$OUT/log.txt"
tar czf "$OUT/d.tar.gz" -C /tmp d
cat "$OUT/log.txt"
