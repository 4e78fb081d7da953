#!/bin/bash
# eval2.sh: LOO and the held-out cases (each alone beside the table) for SETS (default A C)
F=/work/main/build/cli/fuselab
for set in ${SETS:-A C}; do
  r=$($F tune --fit /tmp/xw/$set.json 2>/dev/null | grep "within" | head -1 | sed 's/ within 1.10x of the measured winner; geometric mean regret/ gm/')
  out="$set: $r"; all=/tmp/xw/lines_${set}_all; : > $all
  for seed in 3005 3006 3007 3008 3009 3010 3011 3012; do
    l=/tmp/xw/lines_${set}_$seed; : > $l
    for f in /tmp/xw/h/${set}_${seed}_*.json; do
      read p s d < ${f%.json}.key
      $F tune --fit $f 2>/dev/null | awk -v p=$p -v s=$s -v d=$d '$1==p && $2==s && $3==d' >> $l
    done
    cat $l >> $all
    out="$out | $seed $(awk '{n++; r=($NF=="over")?$(NF-1):$NF; sub("x","",r); if (r+0>w) w=r+0; if (r+0<=1.1) k++} END {printf "%d/%d %.2f", k, n, w}' $l)"
  done
  echo "$out | all $(awk '{n++; r=($NF=="over")?$(NF-1):$NF; sub("x","",r); if (r+0>w) w=r+0; if (r+0<=1.1) k++} END {printf "%d/%d %.2f", k, n, w}' $all)"
done
