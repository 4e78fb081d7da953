#!/bin/bash
# transfer_eval.sh: after transfer_eval.py, the H100 table's pick at each H200 shape (the case
# alone beside X less its size), scored with the H200's times; prints within 1.10x / count /
# geometric mean / worst, beside the H200's own leave-one-out at the same shapes.
F=${F:-build/cli/fuselab}
: > /tmp/xt/lines
for f in /tmp/xt/*.json; do
  read p s d < ${f%.json}.key
  $F tune --fit $f 2>/dev/null | awk -v p=$p -v s=$s -v d=$d '$1==p && $2==s && $3==d' >> /tmp/xt/lines
done
score() { awk '{n++; r=($NF=="over")?$(NF-1):$NF; sub("x","",r); g+=log(r); if (r+0>w) w=r+0; if (r+0<=1.1) k++} END {printf "%d of %d within 1.10x, geometric mean %.3f, worst %.2fx\n", k, n, exp(g/n), w}'; }
echo "the H100's table choosing on the H200: $(score < /tmp/xt/lines)"
cut -d' ' -f1-3 /tmp/xt/*.key > /dev/null
build/cli/fuselab tune --fit results/h200.json 2>/dev/null | awk 'NR==FNR {k[$1" "$2" "$3]=1; next} ($1" "$2" "$3) in k' <(for f in /tmp/xt/*.key; do cat $f; echo; done) - > /tmp/xt/own
echo "the H200's own leave-one-out at the same shapes: $(score < /tmp/xt/own)"
