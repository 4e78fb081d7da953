#!/bin/bash
# conv tuning call 3 (session 4): the shared_weights strategy, and C3 unrolled with it
B=.carry; O=/tmp/s4t3; mkdir -p $O
{
date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv
$B/fuselab_tests --gtest_filter='*conv_relu_pool*' 2>&1 | grep -E "^\[  (PASSED|FAILED|SKIPPED)|Failure" | head -30
S="--schedule tiled --schedule shared_weights --schedule x_ws16u3 --schedule x_wsu3 --schedule x_ws328"
$B/fuselab bench --target cuda --pipeline conv_relu_pool $S --budget 0.3 --json $O/c128.json 2>&1
HL_CUDA_JIT_MAX_REGISTERS=160 $B/fuselab bench --target cuda --pipeline conv_relu_pool --schedule x_ws16u3 --schedule x_wsu3 --size 3840x2160x3x16 --no-check --budget 0.3 --json $O/c160.json 2>&1
} > $O/t3.log
tar czf $OUT/s4t3.tgz -C $O .
grep -E "cuda  |PASSED|FAILED|Failure" $O/t3.log | cut -c1-150
