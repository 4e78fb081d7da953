#!/usr/bin/env bash
# ab_cascade.sh ROUNDS OUT: /tmp/A (the build with short_row's one chain, no cascade) and /tmp/B
# (the same with cpu_stat's cascade: 4-chain partials summed per chunk of 64 steps), alternating;
# each call one variant at one size, --budget 0.6 --no-check; prints each call's median (us).
# Summarized by ../2026-12-04-cpu-s27/ab_summary.py.
set -u
R=$1; out=$2; : > "$out"
cd /work/main
for k in $(seq "$R"); do
  for p in softmax rmsnorm_residual layernorm; do
    for s in block_row two_pass unfused; do
      for d in float32 bfloat16 float16; do
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
