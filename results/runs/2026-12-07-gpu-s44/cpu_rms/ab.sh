#!/usr/bin/env bash
# s44: rmsnorm_residual's CPU forms with h fused with out down to the vectors (rows_common.h:
# cpu_rows_with) and, in block_row's 16-bit types, x + residual rounded once a row into a scratch
# row, beside the forms before (xp_old_*: the same schedule files with h fused at the row only;
# temporary files, not committed) and unfused, ROUNDS rounds, each a fresh `fuselab bench`
# (the strategies alternate within it), THREADS Halide threads, on this session's Zen 3.
#   bash ab.sh OUT ROUNDS THREADS SIZE...   (from the repository root; the build in build/)
out=$1; R=$2; T=$3; shift 3
sz=""; for s in "$@"; do sz+=" --size $s"; done
date -u +%Y-%m-%dT%H:%M:%SZ > "$out.date"
for k in $(seq 1 "$R"); do
    # shellcheck disable=SC2086
    HL_NUM_THREADS=$T build/cli/fuselab bench --target cpu --pipeline rmsnorm_residual \
        --dtype bfloat16 --dtype float16 --dtype float32 --schedule unfused --schedule block_row \
        --schedule xp_old_block_row --schedule lane_rows --schedule xp_old_lane_rows \
        --schedule two_pass --schedule xp_old_two_pass $sz 2>/dev/null |
        awk -v k="$k" '$1 == "rmsnorm_residual" && NF > 8 {print $5, $2, $3, k, $7}'
done > "$out"
python3 - "$out" <<'PY'
import statistics as st, sys
from collections import defaultdict
t = defaultdict(list)
for line in open(sys.argv[1]):
    d, s, n, k, us = line.split()
    t[(d, s, n)].append(float(us))
names = ["unfused", "block_row", "xp_old_block_row", "lane_rows", "xp_old_lane_rows", "two_pass",
         "xp_old_two_pass"]
print("medians (us) of", max(len(v) for v in t.values()), "rounds; new/old ratios")
for d, s in sorted({(d, s) for d, s, n in t}):
    m = {n: st.median(t[(d, s, n)]) for n in names if (d, s, n) in t}
    r = " ".join(f"{a}/old={m[a] / m['xp_old_' + a]:.2f}" for a in ("block_row", "lane_rows", "two_pass"))
    print(f"{d:9s} {s:11s}", " ".join(f"{n}={v:.0f}" for n, v in m.items()), "|", r,
          f"| block_row/unfused={m['block_row'] / m['unfused']:.2f}")
PY
