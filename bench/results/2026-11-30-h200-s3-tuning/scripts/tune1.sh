#!/bin/bash
# conv tuning call 1 (session 3) -- recreated from the session's transcript; the original was
# deleted after the call.
B=.carry; O=/tmp/o; mkdir -p $O
export FUSELAB_CUPTI_LIB=$B/libcupti.so.12
{
date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv
S="--schedule tiled --schedule x_vw --schedule x_vwu3 --schedule x_u3 --schedule x_u2 --schedule x_b328 --schedule x_b642 --schedule x_k4"
echo "== cap 128"; $B/fuselab bench --target cuda --pipeline conv_relu_pool $S --budget 0.3 --json $O/conv128.json 2>&1
for r in 96 168; do echo "== cap $r"; HL_CUDA_JIT_MAX_REGISTERS=$r $B/fuselab bench --target cuda --pipeline conv_relu_pool --schedule tiled --schedule x_u3 --schedule x_vw --schedule x_vwu3 --schedule x_u2 --no-check --budget 0.3 --json $O/conv$r.json 2>&1; done
echo "== cap 128 again"; $B/fuselab bench --target cuda --pipeline conv_relu_pool $S --no-check --budget 0.3 2>&1
} > $O/tune1.log
SEC="--section SpeedOfLight --section Occupancy --section WarpStateStats --section SchedulerStats --section LaunchStats --section MemoryWorkloadAnalysis --section InstructionStats --section ComputeWorkloadAnalysis"
for v in "tiled 3840x2160x3x16" "x_u3 3840x2160x3x16" "x_vw 3840x2160x3x16" "tiled 256x256x64x64" "tiled 1920x1080x16x16"; do
  set -- $v
  timeout 120 ncu --clock-control none $SEC $B/fuselab bench --target cuda --pipeline conv_relu_pool --schedule $1 --size $2 --once --no-check < /dev/null > $O/ncu_$1_$2.txt 2>&1
done
tar czf $OUT/tune1.tgz -C $O .
tail -60 $O/tune1.log
