# The row shapes' leave-one-out regret for each setting of the measured-shape choice (measured.h),
# on s17's rows (assemble.sh leaves its bench_all.json at /tmp/bench_all_s18.json): near (the most
# distance a neighbour may be), the power of 1/(d + 0.05), k neighbours, M's weight, the alignment
# weight. Prints, per setting: shapes decided by neighbours, shapes in all, within 1.10x, the worst
# regret, the geometric mean over the decided ones.
#   python3 results/runs/2026-12-03-h200-s18/choice_params.py
import itertools, json, math
from collections import defaultdict
d = json.load(open('/tmp/bench_all_s18.json'))
ROWS = ('softmax', 'rmsnorm_residual', 'layernorm')
shapes = defaultdict(dict)  # (wl, dt, size) -> {sched: us}
for r in d['records']:
    if r['workload'] in ROWS and r.get('kind') == 'fuselab' and r.get('median_us') and not r.get('error'):
        shapes[(r['workload'], r.get('dtype', 'float32'), r['size'])][r['name']] = r['median_us']
def align(n):
    k = 0
    while n % 2 == 0 and k < 8:
        n //= 2; k += 1
    return k
def feat(size):
    n, m = map(int, size.split('x')); return (math.log2(n), math.log2(m), align(n))
def run(near, power, k, wm, wa):
    regs = []
    for key, us in shapes.items():
        if len(us) < 2: continue
        wl, dt, size = key
        q = feat(size)
        cands = []
        for k2, us2 in shapes.items():
            if k2[:2] != (wl, dt) or k2[2] == size: continue
            f = feat(k2[2]); dist = abs(q[0]-f[0]) + wm*abs(q[1]-f[1]) + wa*abs(q[2]-f[2])
            if len(set(us) & set(us2)) >= 2: cands.append((dist, us2))
        cands.sort(key=lambda c: c[0])
        if not cands or cands[0][0] > near: regs.append(None); continue
        use = [c for c in cands[:k] if c[0] <= near]
        score = defaultdict(lambda: [0, 0])
        for dist, us2 in use:
            names = [s for s in us if s in us2]
            best = min(us2[s] for s in names)
            w = 1/(dist+0.05)**power
            for s in names:
                score[s][0] += w*math.log(us2[s]/best); score[s][1] += w
        pick = min(score, key=lambda s: (score[s][0]/score[s][1], s))
        regs.append(us[pick]/min(us.values()))
    got = [r for r in regs if r is not None]
    gm = math.exp(sum(map(math.log, got))/len(got))
    return len(got), len(regs), sum(r <= 1.10 for r in got), round(max(got), 3), round(gm, 4)
res = []
for s in itertools.product([2, 3, 4], [1, 2, 3], [1, 2, 3, 4, 6], [0.25, 0.5, 1.0], [0, 0.1, 0.25]):
    res.append((s, run(*s)))
for s, r in sorted(res, key=lambda x: (x[1][4])):
    print(*s, r)
