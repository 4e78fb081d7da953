"""s32: the H100's table (X: this session's grids) choosing for the H200, scored with the H200's own
times (results/h200.json) at each row shape both measured: each H200 shape alone beside X less
that size; the leave-one-out's pick at that size is X's. Compare the H200's own leave-one-out
(results/h200.json's choice list) at the same shapes. Strategies the H200 never timed
(adjacent_warp; layernorm's adjacent_row) are left out of the H200 cases, so X ranks only the
ones it can be scored on.
  python3 results/runs/2026-12-05-h100-s32/transfer_eval.py   (writes /tmp/xt/*.json)"""
import glob, json, os, shutil, collections
S = "results/runs/2026-12-05-h100-s32"
rows = ("softmax", "layernorm", "rmsnorm_residual")
grid = [json.load(open(p)) for d in ("c", "d", "d2") for p in sorted(glob.glob(f"{S}/{d}/grid_*.json"))]
meta = dict(grid[0]["meta"])
X = [r for g in grid for r in g["records"]]
h200 = json.load(open("results/h200.json"))
H = collections.defaultdict(list)
for r in h200["records"]:
    if r["workload"] in rows and r.get("kind") == "fuselab" and r.get("ok") and r.get("median_us"):
        H[(r["workload"], r.get("dtype"), r["size"])].append(r)
xkeys = {(r["workload"], r.get("dtype"), r["size"]) for r in X}
shutil.rmtree("/tmp/xt", ignore_errors=True); os.makedirs("/tmp/xt")
n = 0
for k in sorted(set(H) & xkeys):
    recs = [r for r in X if (r["workload"], r.get("dtype"), r["size"]) != k] + H[k]
    json.dump({"meta": meta, "records": recs}, open(f"/tmp/xt/{n}.json", "w"))
    open(f"/tmp/xt/{n}.key", "w").write(" ".join((k[0], k[2], k[1])))
    n += 1
print(n, "cases")
