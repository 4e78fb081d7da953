#!/usr/bin/env bash
# ab.sh ROUNDS PIPELINE DTYPE "SIZES" "SCHEDULES" [THREADS]: each schedule at each size in turn,
# ROUNDS rounds (one fuselab bench call each, --budget 0.5 --no-check), then per (size, schedule)
# the median of the rounds' medians and its ratio to the first schedule's. From the repository
# root, with build/; AB_RAW=FILE keeps the raw lines. This VM's timings drift by 10-30% over minutes: only alternating runs count.
set -u
rounds=$1 p=$2 d=$3 sizes=$4 scheds=$5 t=${6:-2}
raw=${AB_RAW:-$(mktemp)}; : > "$raw"
for k in $(seq "$rounds"); do
  for sz in $sizes; do
    for s in $scheds; do
      HL_NUM_THREADS=$t build/cli/fuselab bench --target cpu --pipeline $p --schedule $s --dtype $d \
          --size $sz --budget 0.5 --no-check --json /tmp/ab.json > /dev/null 2>&1
      .venv/bin/python -c "import json;r=json.load(open('/tmp/ab.json'))['records'][0];print('$k $sz $s', r['median_us'])" >> "$raw"
    done
  done
done
.venv/bin/python - "$raw" "$scheds" "$p $d threads=$t rounds=$rounds" <<'PY'
import sys, statistics as st, collections
rows = [l.split() for l in open(sys.argv[1])]
scheds = sys.argv[2].split()
t = collections.defaultdict(list)
for k, sz, s, us in rows:
    t[(sz, s)].append(float(us))
print("#", sys.argv[3])
for sz in dict.fromkeys(r[1] for r in rows):
    base = st.median(t[(sz, scheds[0])])
    print(sz, "  ".join(f"{s} {st.median(t[(sz, s)]):.1f} ({base / st.median(t[(sz, s)]):.3f}x)" for s in scheds))
PY
