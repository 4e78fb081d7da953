#!/usr/bin/env bash
# (not committed) device call 1 of session 7
set -u
bash bench/carry.sh --unpack
B=.carry/fuselab
mkdir -p $OUT
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv; } > $OUT/machine.txt 2>&1
t0=$SECONDS
timeout 100 $B bench --target cuda --pipeline stencil_chain_k2 --pipeline stencil_chain_k4 --pipeline stencil_chain_k8 --schedule line_buffer --schedule line_buffer_r16 --schedule line_buffer_vs --schedule line_buffer_vs_r16 --budget 0.25 --device-budget 0.2 --json $OUT/stencil.json > $OUT/stencil.txt 2> $OUT/stencil.err
echo "stencil: exit $? $((SECONDS-t0)) s"; grep -E "^stencil" $OUT/stencil.txt
t0=$SECONDS
timeout 120 $B bench --target cuda --pipeline conv_relu_pool --schedule tiled --schedule shared_weights --schedule shared_weights_b32x8 --schedule x_b16x8 --schedule x_b32x16 --schedule x_k16b32x8 --budget 0.25 --device-budget 0.2 --json $OUT/conv.json > $OUT/conv.txt 2> $OUT/conv.err
echo "conv: exit $? $((SECONDS-t0)) s"; grep -E "^conv" $OUT/conv.txt
$B list --target cuda > $OUT/list.txt 2>&1
t0=$SECONDS
OUT=$OUT BIN=.carry SWEEP_JOBS=10 timeout 390 bash bench/gpu_run.sh tests > $OUT/tests_console.log 2>&1
echo "tests part: exit $? $((SECONDS-t0)) s"; cat $OUT/tests_console.log | tail -30
