#!/bin/bash
# session 5 tuning call 2: hand kernels with an interior fast path; blur strip shapes; copy bandwidth
B=.carry; O=$OUT
exec > $O/t2.log 2>&1
date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv
$B/fuselab_tests --gtest_filter='*conv_relu_pool*hand*:*blur3x3*x_*' 2>&1 | grep -E "^\[  (PASSED|FAILED|SKIPPED)|Failure|FAILED  \]" | head -30
date -u
$B/fuselab bench --target cuda --pipeline conv_relu_pool --size 3840x2160x3x16 --schedule tiled --schedule hand_const --schedule hand_global --budget 0.3 --json $O/conv.json 2>&1 | grep -E "cuda  "
X="--schedule inline_rows --schedule x_ir232 --schedule x_ir2_32_128 --schedule x_ir2_64_64 --schedule x_ir2_32_32 --schedule x_ir2_24_64"
$B/fuselab bench --target cuda --pipeline blur3x3 $X --budget 0.5 --json $O/blur.json 2>&1 | grep -E "cuda  "
python3 bench/peers.py --workload copy --json $O/copy.json 2>&1 | tail -3
$B/fuselab bench --target cuda --pipeline blur3x3 $X --budget 0.5 --no-check --json $O/blur2.json 2>&1 | grep -E "cuda  "
date -u
M=smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio,smsp__average_warps_issue_stalled_dispatch_stall_per_issue_active.ratio,smsp__average_warps_issue_stalled_no_instruction_per_issue_active.ratio,smsp__issue_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,gpu__time_duration.sum,launch__registers_per_thread
for s in hand_const hand_global; do
  timeout 60 ncu --clock-control none --metrics $M $B/fuselab bench --target cuda --pipeline conv_relu_pool --schedule $s --size 3840x2160x3x16 --once --no-check < /dev/null > $O/ncu_$s.txt 2>&1
  echo "== $s"; grep -E "smsp__|gpu__time|launch__" $O/ncu_$s.txt | sed 's/smsp__average_warps_issue_stalled_//; s/_per_issue_active.ratio//' | awk '{print $1, $(NF)}' | tr '\n' ' '; echo
done
date -u
