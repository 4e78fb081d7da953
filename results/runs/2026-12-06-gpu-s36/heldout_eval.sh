#!/bin/bash
# heldout_eval.sh (s36, after heldout_eval.py): each table's leave-one-out, and each held-out case
# alone beside it; prints within 1.10x / count / worst.
F=${F:-build/cli/fuselab}
for set in NEW OLD; do
  r=$($F tune --fit /tmp/xh/$set.json 2>/dev/null | grep "within" | head -1)
  l=/tmp/xh/lines_$set; : > $l
  for f in /tmp/xh/h/${set}_*.json; do
    read p s d < ${f%.json}.key
    $F tune --fit $f 2>/dev/null | awk -v p=$p -v s=$s -v d=$d '$1==p && $2==s && $3==d' >> $l
  done
  echo "$set: table $r | seed 3302 $(awk '{n++; r=($NF=="over")?$(NF-1):$NF; sub("x","",r); if (r+0>w) w=r+0; if (r+0<=1.1) k++} END {printf "%d/%d worst %.2fx", k, n, w}' $l)"
done
