#!/bin/bash
# conv tuning call 1 (session 4): weights staged in shared memory (x_ws*)
B=.carry; O=/tmp/s4t2; mkdir -p $O
export FUSELAB_CUPTI_LIB=$B/libcupti.so.12
{
date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv
$B/fuselab_tests --gtest_filter='*conv_relu_pool*' 2>&1 | grep -E "^\[  (PASSED|FAILED|  OK|SKIPPED)|Failure|FAILED" | grep -v "  OK" | head -30
S="--schedule tiled --schedule x_ws --schedule x_ws16 --schedule x_ws328 --schedule x_ws4 --schedule x_ws16b"
echo "== cap 128"; $B/fuselab bench --target cuda --pipeline conv_relu_pool $S --budget 0.3 --json $O/c128.json 2>&1
for r in 96 160; do echo "== cap $r"; HL_CUDA_JIT_MAX_REGISTERS=$r $B/fuselab bench --target cuda --pipeline conv_relu_pool --schedule x_ws --schedule x_ws16 --no-check --budget 0.3 --json $O/c$r.json 2>&1; done
} > $O/t2.log
M=smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio,smsp__average_warps_issue_stalled_selected_per_issue_active.ratio,smsp__average_warps_issue_stalled_dispatch_stall_per_issue_active.ratio,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_no_instruction_per_issue_active.ratio,smsp__issue_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,gpu__time_duration.sum,dram__bytes_read.sum,sm__warps_active.avg.pct_of_peak_sustained_active
for v in "tiled 3840x2160x3x16" "x_ws 3840x2160x3x16" "x_ws16 3840x2160x3x16" "x_ws 1920x1080x16x16"; do
  set -- $v
  timeout 60 ncu --clock-control none --metrics $M $B/fuselab bench --target cuda --pipeline conv_relu_pool --schedule $1 --size $2 --once --no-check < /dev/null > $O/ncu_$1_$2.txt 2>&1
done
tar czf $OUT/s4t2.tgz -C $O .
grep -vE "^\s*$" $O/t2.log | cut -c1-150 | tail -60
for f in $O/ncu_*.txt; do echo "== $f"; grep -E "smsp__|gpu__time|dram__|sm__warps" $f | sed 's/smsp__average_warps_issue_stalled_//; s/_per_issue_active.ratio//' | awk '{print $1, $NF}' | tr '\n' ' '; echo; done
