#!/usr/bin/env bash
# s36: softmax recompute_row (148d2ee, not in the CPU table) at every softmax shape of
# results/cpu.json, three types, beside block_row (the table's cells, for a drift check), three
# passes, fuselab alone, the build as committed.
#   bash results/runs/2026-12-06-cpu-s36/rep/rep.sh PASS   (from the repository root; needs build/)
set -uo pipefail
P=${1:?pass}
R=${REP_OUT:-results/runs/2026-12-06-cpu-s36/rep}/p$P
mkdir -p $R
F=build/cli/fuselab
sizes=$(python3 -c "
import json
t = json.load(open('results/cpu.json'))
print(' '.join('--size ' + s for s in sorted({r['size'] for r in t['records']
      if r['workload'] == 'softmax' and r.get('kind') == 'fuselab'})))")
date -u +%Y-%m-%dT%H:%M:%SZ
t0=$SECONDS
# shellcheck disable=SC2086
$F bench --target cpu --pipeline softmax --schedule recompute_row --schedule block_row \
    --dtype float32 --dtype bfloat16 --dtype float16 $sizes --json $R/softmax.json > $R/softmax.txt 2> $R/softmax.err
echo "p$P: exit $? in $((SECONDS - t0)) s: $(grep -E '^[0-9]+ rows' $R/softmax.txt)"
date -u +%Y-%m-%dT%H:%M:%SZ
