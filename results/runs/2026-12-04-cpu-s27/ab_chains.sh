#!/usr/bin/env bash
# ab_chains.sh ROUNDS OUT: /tmp/A (ef681c4's CLI: every CPU row statistic in 4 chains) and /tmp/B
# (the build with one chain where nothing folds the partials: rmsnorm_residual's block_row and
# two_pass, every unfused form), alternating; each call one variant at one size, --budget 0.6
# --no-check; prints each call's median (us). Summarized by ab_summary.py.
set -u
R=$1; out=$2; : > "$out"
cd /work/main
for k in $(seq "$R"); do
  for ps in rmsnorm_residual:block_row rmsnorm_residual:two_pass rmsnorm_residual:unfused \
            softmax:unfused layernorm:unfused; do
    p=${ps%:*}; s=${ps#*:}
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
