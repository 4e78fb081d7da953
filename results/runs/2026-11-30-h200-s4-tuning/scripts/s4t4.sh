#!/bin/bash
# conv tuning call 4 (session 4): 8 channels x 1 pooled pixel a thread with shared weights (fewer
# registers, more warps), and pooled rows done serially inside a thread
B=.carry; O=/tmp/s4t4; mkdir -p $O
{
date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv
S="--schedule tiled --schedule shared_weights --schedule x_sw8 --schedule x_sw8b --schedule x_sw8y4 --schedule x_swy2 --schedule x_ty2"
echo "== cap 128"; $B/fuselab_x bench --target cuda --pipeline conv_relu_pool $S --budget 0.2 --json $O/c128.json 2>&1
for r in 96 80 72; do for z in 3840x2160x3x16 1920x1080x16x16; do echo "== cap $r"; HL_CUDA_JIT_MAX_REGISTERS=$r $B/fuselab_x bench --target cuda --pipeline conv_relu_pool --schedule x_sw8 --schedule x_sw8b --schedule x_sw8y4 --size $z --budget 0.2 --json $O/c${r}_$z.json 2>&1; done; done
} > $O/t4.log
tar czf $OUT/s4t4.tgz -C $O .
grep -E "cuda  |== cap" $O/t4.log | cut -c1-150
