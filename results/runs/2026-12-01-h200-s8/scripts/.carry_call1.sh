#!/usr/bin/env bash
# (not committed) device call 1 of session 8: tuning, sanitizers of the changed variants, tests
set -u
bash bench/carry.sh --unpack
B=.carry/fuselab
R=/tmp/r1; mkdir -p $R
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv; cat .carry/commit .carry/status; } > $R/machine.txt 2>&1
t0=$SECONDS
timeout 90 $B bench --target cuda --pipeline conv_relu_pool --schedule shared_weights --schedule shared_weights_k16_b32x8 --schedule x_k16b32x16 --schedule x_k16b16x16 --schedule x_k16b32x8u2 --schedule x_k16b64x4 --budget 0.25 --device-budget 0.2 --json $R/conv.json > $R/conv.txt 2> $R/conv.err
echo "conv: exit $? $((SECONDS-t0)) s"; grep -E "^conv" $R/conv.txt
t0=$SECONDS
for p in pointwise_chain branches; do timeout 30 $B bench --target cuda --pipeline $p --schedule fused --schedule horizontal --schedule x_pt8 --schedule x_pt16 --size 268435456 --budget 0.25 --device-budget 0.2 --json $R/pw_$p.json > $R/pw_$p.txt 2> $R/pw_$p.err; done
echo "pw: exit $? $((SECONDS-t0)) s"; grep -hE "^(pointwise|branches)" $R/pw_*.txt
$B list --target cuda > $R/list.txt 2>&1
t0=$SECONDS
OUT=$R BIN=.carry SWEEP_JOBS=10 timeout 330 bash bench/gpu_run.sh tests > $R/tests_console.log 2>&1
echo "tests part: exit $? $((SECONDS-t0)) s"; tail -22 $R/tests_console.log
tar cJf $OUT/r1.tar.xz -C $R .
