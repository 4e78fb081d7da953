#!/bin/bash
# s33: constants.txt's harness (after heldout_eval.py here and results/runs/2026-12-05-h100-s32/heldout_eval.py,
# their /tmp/xg files copied to /tmp/xe as A and B); F: a CLI built with constants_probe.diff.
# prints: LOO h200 | LOO h100 | LOO cpu | heldout A (h200 3301) | heldout B (h100 3201+3202)
F=${F:-/tmp/fuselab_x}
out=""
for t in /work/main/results/h200.json /work/main/results/h100.json /work/main/results/cpu.json; do
  out="$out $($F tune --fit $t 2>/dev/null | grep within | tail -1 | awk '{print $1"/"$3, $NF}')"
done
for set in A B; do
  l=/tmp/xe/lines_$set; : > $l
  for f in /tmp/xe/h/${set}_*.json; do
    read p s d < ${f%.json}.key
    $F tune --fit $f 2>/dev/null | awk -v p=$p -v s=$s -v d=$d '$1==p && $2==s && $3==d' >> $l
  done
  out="$out | $set $(awk '{n++; r=($NF=="over")?$(NF-1):$NF; sub("x","",r); if (r+0>w) w=r+0; if (r+0<=1.1) k++; g+=log(r+0)} END {printf "%d/%d w%.2f gm%.3f", k, n, w, exp(g/n)}' $l)"
done
echo "$out"
