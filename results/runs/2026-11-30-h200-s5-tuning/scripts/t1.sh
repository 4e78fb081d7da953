#!/bin/bash
# session 5 tuning call 1: hand-written CUDA conv (constant vs global weights) against tiled; blur strip shapes
B=.carry; O=$OUT; export FUSELAB_CUPTI_LIB=$B/libcupti.so.12
exec > $O/t1.log 2>&1
date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv
$B/fuselab_tests --gtest_filter='*conv_relu_pool*:*blur3x3*' 2>&1 | grep -E "^\[  (PASSED|FAILED|SKIPPED)|Failure|FAILED  \]" | head -30
date -u
S="--schedule tiled --schedule shared_weights --schedule hand_const --schedule hand_global"
$B/fuselab bench --target cuda --pipeline conv_relu_pool $S --budget 0.3 --json $O/conv.json 2>&1
date -u
$B/fuselab bench --target cuda --pipeline blur3x3 --schedule inline_rows --schedule x_ir232 --schedule x_ir216w --schedule x_ir416 --schedule x_ir132 --budget 0.5 --json $O/blur.json 2>&1
$B/fuselab bench --target cuda --pipeline blur3x3 --schedule inline_rows --schedule x_ir232 --schedule x_ir216w --schedule x_ir416 --schedule x_ir132 --budget 0.5 --no-check --json $O/blur2.json 2>&1
date -u
M=smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio,smsp__average_warps_issue_stalled_selected_per_issue_active.ratio,smsp__average_warps_issue_stalled_dispatch_stall_per_issue_active.ratio,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_no_instruction_per_issue_active.ratio,smsp__issue_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,gpu__time_duration.sum,dram__bytes_read.sum,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,sm__cycles_elapsed.avg.per_second
for s in tiled hand_const hand_global; do
  timeout 60 ncu --clock-control none --metrics $M $B/fuselab bench --target cuda --pipeline conv_relu_pool --schedule $s --size 3840x2160x3x16 --once --no-check < /dev/null > $O/ncu_$s.txt 2>&1
  echo "== $s"; grep -E "smsp__|gpu__time|dram__|sm__|launch__" $O/ncu_$s.txt | sed 's/smsp__average_warps_issue_stalled_//; s/_per_issue_active.ratio//' | awk '{print $1, $(NF)}' | tr '\n' ' '; echo
done
date -u
