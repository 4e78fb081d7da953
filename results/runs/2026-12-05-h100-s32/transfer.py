"""s32: how far one GPU's measured winner is from the other's at the same row shape. H100 (this
session's c/ grids) against H200 (results/h200.json's row records), the strategies both timed.
  python3 results/runs/2026-12-05-h100-s32/transfer.py   (from the repository root)"""
import glob, json, math, collections
S = "results/runs/2026-12-05-h100-s32"
rows = {"softmax", "layernorm", "rmsnorm_residual"}
def table(records):
    t = collections.defaultdict(dict)
    for r in records:
        if r.get("kind") == "fuselab" and r["workload"] in rows and r.get("ok") and r.get("median_us"):
            t[(r["workload"], r.get("dtype"), r["size"])][r["name"]] = r["median_us"]
    return t
h100 = table(r for p in glob.glob(f"{S}/c/grid_*.json") for r in json.load(open(p))["records"])
h200 = table(json.load(open("results/h200.json"))["records"])
for a_name, a, b_name, b in (("H100", h100, "H200", h200), ("H200", h200, "H100", h100)):
    regrets = []
    worst = []
    for k in sorted(set(a) & set(b)):
        common = set(a[k]) & set(b[k])
        if len(common) < 2:
            continue
        pick = min(common, key=lambda s: a[k][s])
        best = min(common, key=lambda s: b[k][s])
        g = b[k][pick] / b[k][best]
        regrets.append(g)
        worst.append((g, k, pick, best))
    worst.sort(reverse=True)
    n = len(regrets)
    print(f"{a_name}'s winner run on the {b_name}: {n} shapes, {sum(g <= 1.10 for g in regrets)} within 1.10x, "
          f"geometric mean {math.exp(sum(map(math.log, regrets)) / n):.3f}, worst:")
    for g, k, pick, best in worst[:5]:
        print(f"  {g:.2f}x {k[0]} {k[1]} {k[2]}: {pick} (winner {best})")
