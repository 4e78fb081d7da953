#!/bin/bash
# conv tuning call 5 (session 4): call 4 (s4t4.sh) timed out with nothing back; the C3 K16 core
# of it, unchecked, written to $OUT as it goes
B=.carry
L=$OUT/t5.log
date -u > $L
for r in 128 80; do
  echo "== cap $r" >> $L
  HL_CUDA_JIT_MAX_REGISTERS=$r timeout 40 $B/fuselab_x bench --target cuda --pipeline conv_relu_pool --schedule tiled --schedule x_sw8 --schedule x_sw8y4 --size 3840x2160x3x16 --no-check --budget 0.1 --device-budget 0.05 2>&1 | grep -E "cuda  |error" >> $L
done
cat $L
