# How well one storage type's winner stands in for float16's at the same row shape, on s17's grid
# (assemble.sh leaves its bench_all.json at /tmp/bench_all_s17.json): for each (pipeline, size)
# timed in float16 and in the stand-in type, the stand-in's winner among the strategies both ran,
# timed in float16, over float16's own winner (the regret).
#   python3 results/runs/2026-12-03-h200-s17/twin_check.py > twin_check.txt
import collections, json, math
d = json.load(open('/tmp/bench_all_s17.json'))
t = collections.defaultdict(dict)
for r in d['records']:
    if r['workload'] in ('softmax', 'rmsnorm_residual', 'layernorm') and r.get('median_us') \
            and r.get('kind') == 'fuselab':
        t[(r['workload'], r['size'], r.get('dtype'))][r['name']] = r['median_us']
for twin in ('bfloat16', 'float32'):
    regs = []
    for (w, s, dt), us in sorted(t.items()):
        b = t.get((w, s, twin))
        if dt != 'float16' or not b:
            continue
        common = set(us) & set(b)
        pick = min(common, key=lambda k: b[k])
        win = min(common, key=lambda k: us[k])
        regs.append(us[pick] / us[win])
        if pick != win:
            print(f"  {twin} for float16 at {w} {s}: {pick} {us[pick] / us[win]:.2f}x over {win}")
    gm = math.exp(sum(map(math.log, regs)) / len(regs))
    print(f"{twin} standing in for float16: {len(regs)} shapes, {sum(r == 1 for r in regs)} same "
          f"winner, {sum(r <= 1.10 for r in regs)} within 1.10x, worst {max(regs):.2f}x, "
          f"geometric mean {gm:.3f}")
