#!/bin/bash
# heldout_eval.sh (s33): after heldout_eval.py, the leave-one-out of each table and each held-out case
# alone beside it; prints within 1.10x / count / worst per seed.
F=${F:-build/cli/fuselab}
for set in ${SETS:-NEW OLD}; do
  r=$($F tune --fit /tmp/xg/$set.json 2>/dev/null | grep "within" | head -1)
  out="$set: table $r"; all=/tmp/xg/lines_${set}_all; : > $all
  for seed in 3301; do
    l=/tmp/xg/lines_${set}_$seed; : > $l
    for f in /tmp/xg/h/${set}_${seed}_*.json; do
      read p s d < ${f%.json}.key
      $F tune --fit $f 2>/dev/null | awk -v p=$p -v s=$s -v d=$d '$1==p && $2==s && $3==d' >> $l
    done
    cat $l >> $all
    out="$out | $seed $(awk '{n++; r=($NF=="over")?$(NF-1):$NF; sub("x","",r); if (r+0>w) w=r+0; if (r+0<=1.1) k++} END {printf "%d/%d %.2f", k, n, w}' $l)"
  done
  echo "$out | all $(awk '{n++; r=($NF=="over")?$(NF-1):$NF; sub("x","",r); if (r+0>w) w=r+0; if (r+0<=1.1) k++} END {printf "%d/%d %.2f", k, n, w}' $all)"
done
