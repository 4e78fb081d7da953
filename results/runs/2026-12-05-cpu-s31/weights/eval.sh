#!/bin/bash
# eval.sh WEIGHTS -> LOO summary for A, B and held-out (each held-out case alone beside the table)
F=/work/main/build/cli/fuselab
w=$1
for set in ${SETS:-A B}; do
  r=$(FUSELAB_XW=$w $F tune --fit /tmp/xw/$set.json 2>/dev/null | grep "within" | head -1 | sed 's/ within 1.10x of the measured winner; geometric mean regret/ gm/')
  out="$set: $r"
  for seed in 3005 3006; do
    rm -f /tmp/xw/lines_${set}_$seed
    for f in /tmp/xw/h/${set}_${seed}_*.json; do
      read p s d < ${f%.json}.key
      FUSELAB_XW=$w $F tune --fit $f 2>/dev/null | awk -v p=$p -v s=$s -v d=$d '$1==p && $2==s && $3==d' >> /tmp/xw/lines_${set}_$seed
    done
    st=$(awk '{n++; r=($NF=="over")?$(NF-1):$NF; sub("x","",r); if (r+0>w) w=r+0; if (r+0<=1.1) k++} END {printf "%d/%d worst %.2f", k, n, w}' /tmp/xw/lines_${set}_$seed)
    out="$out | h$seed $st"
  done
  echo "$w $out"
done
