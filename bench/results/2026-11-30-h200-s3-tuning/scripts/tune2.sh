#!/bin/bash
# conv tuning calls 2 and 3 (session 3): input tile in shared memory. As run for call 3 (call 2:
# O=/tmp/o2, tune2.tgz, and x_sm3b in the list)
B=.carry; O=/tmp/o3; mkdir -p $O
{
date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv
S="--schedule tiled --schedule x_sm3 --schedule x_sm3c"
$B/fuselab_x bench --target cuda --pipeline conv_relu_pool $S --budget 0.3 --json $O/conv_sm.json 2>&1
$B/fuselab_x bench --target cuda --pipeline conv_relu_pool $S --no-check --budget 0.3 --size 3840x2160x3x16 2>&1 | tail -8
} > $O/tune2.log
timeout 60 ncu --clock-control none --section SpeedOfLight --section Occupancy --section WarpStateStats --section SchedulerStats --section InstructionStats --section LaunchStats $B/fuselab_x bench --target cuda --pipeline conv_relu_pool --schedule x_sm3 --size 3840x2160x3x16 --once --no-check < /dev/null > $O/ncu_x_sm3.txt 2>&1
tar czf $OUT/tune3.tgz -C $O .
grep -E "cuda  " $O/tune2.log | cut -c1-150
