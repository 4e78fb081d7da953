#!/usr/bin/env python3
"""s48: issue 29's held-out check on the H100 (calls 1 and 9: c1/, c2/; tools/choice_check.py,
`fuselab run` with no tuning record, then every strategy timed at the same shape in the same call),
summed over both calls' cases.   python3 h100_heldout.py   (in this folder)"""
import glob, math, os, re

os.chdir(os.path.dirname(os.path.abspath(__file__)))
rs = []
for d in ("c1", "c2"):
    for f in sorted(glob.glob(f"{d}/choice_check_*.txt")):
        for line in open(f):
            m = re.search(r"(\d+\.\d+)x\s*$", line)
            if m and not line.startswith("random"):
                rs.append((float(m.group(1)), f"{f[:2]} {f[16:20]} {' '.join(line.split()[:5])}"))
n, within = len(rs), sum(r <= 1.10 for r, _ in rs)
print(f"{n} cases (seeds 4801, 4802, 4891 in c1/; 4803, 4804, 4892 in c2/; each cut by its timeout)")
print(f"within 1.10x of the winner: {within} ({100 * within / n:.1f}%); geometric mean "
      f"{math.exp(sum(math.log(r) for r, _ in rs) / n):.3f}; worst {max(r for r, _ in rs):.2f}x")
for r, what in rs:
    if r > 1.10:
        print(f"  {what}  {r:.2f}x")
