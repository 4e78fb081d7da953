#!/usr/bin/env bash
# ab.sh ROUNDS OUT: /tmp/A (3e66721's CLI, built in a worktree) and /tmp/B (22df328's) alternating,
# ROUNDS rounds; each call one variant at one size, --budget 0.6 --no-check; prints each call's
# median (us). Every CPU row pipeline, type and suite size, strategies block_row and two_pass.
set -u
R=$1; out=$2; : > "$out"
cd /work/main
for k in $(seq "$R"); do
  for p in softmax rmsnorm_residual layernorm; do
    for d in float32 bfloat16 float16; do
      for s in block_row two_pass; do
        for sz in 256x16384 4096x1024 65536x64; do
          for w in A B; do
            /tmp/$w bench --target cpu --pipeline $p --schedule $s --dtype $d --size $sz \
                --budget 0.6 --no-check --json /tmp/ab_$w.json > /dev/null 2>&1
            .venv/bin/python -c "import json;r=json.load(open('/tmp/ab_$w.json'))['records'][0];print('$k $w $p $d $s $sz', r['median_us'])" >> "$out"
          done
        done
      done
    done
  done
done
