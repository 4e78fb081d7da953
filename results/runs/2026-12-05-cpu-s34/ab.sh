#!/usr/bin/env bash
# ab.sh ROUNDS OUT [PIPELINE SCHEDULE DTYPES SIZES]: /tmp/A (the CLI before the change) and
# /tmp/B (after) alternating, ROUNDS rounds, on 1 and 2 threads; each call one variant at one
# size, --budget 0.6 --no-check; prints each call's median (us).
set -u
R=$1; out=$2; p=${3:-softmax}; s=${4:-block_row}; dts=${5:-float32}
sizes=${6:-"256x16384 1024x4096 4096x1024 8192x512 65536x64"}
: > "$out"
cd /work/main
for k in $(seq "$R"); do
  for d in $dts; do
    for sz in $sizes; do
      for t in ${THREADS:-1 2}; do
        for w in A B; do
          HL_NUM_THREADS=$t /tmp/$w bench --target cpu --pipeline $p --schedule $s --dtype $d \
              --size $sz --budget 0.6 --no-check --json /tmp/ab_$w.json > /dev/null 2>&1
          .venv/bin/python -c "import json;r=json.load(open('/tmp/ab_$w.json'))['records'][0];print('$k $w $p $d $s $sz t$t', r['median_us'])" >> "$out"
        done
      done
    done
  done
done
