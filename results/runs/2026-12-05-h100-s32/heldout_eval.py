"""s32: the GPU choice at the 72 held-out H100 shapes of c/ (choice_check seeds 3201, 3202: every
strategy timed there), offline: each case alone beside a table, the bench's leave-one-out then
picks at the case's size from the table's other shapes, as choose() would (bench/choice.cpp).
Tables: X, this session's H100 grids (c/, d/, d2/); Y, results/h200.json's row records (the
H200's table, what the H100 consulted in c/). Writes /tmp/xg/{X,Y}.json and /tmp/xg/h/*.json;
heldout_eval.sh runs the fits.
  python3 results/runs/2026-12-05-h100-s32/heldout_eval.py   (from the repository root)"""
import glob, json, os, shutil
S = "results/runs/2026-12-05-h100-s32"
rows = ("softmax", "layernorm", "rmsnorm_residual")
grid = [json.load(open(p)) for d in ("c", "d", "d2") for p in sorted(glob.glob(f"{S}/{d}/grid_*.json"))]
meta = dict(grid[0]["meta"])
X = [r for g in grid for r in g["records"]]
h200 = json.load(open("results/h200.json"))
Y = [r for r in h200["records"] if r["workload"] in rows and r.get("kind") == "fuselab"]
def el(size):
    n, m = size.split("x"); return int(n) * int(m)
proto = {}
for r in Y + X:  # X's last: this build's ledgers where both have one
    if r.get("ok") and r.get("min_bytes"):
        proto[(r["workload"], r["name"], r.get("dtype"))] = r
def case_records(c):
    out = []
    for s, us in c["times_us"].items():
        p = proto.get((c["pipeline"], s, c["dtype"]))
        if p is None or us is None:
            continue
        f = el(c["size"]) / el(p["size"])
        out.append(dict(workload=c["pipeline"], size=c["size"], name=s, dtype=c["dtype"], target="cuda",
                        kind="fuselab", timing="events", median_us=us, kernels=p.get("kernels"),
                        min_bytes=p["min_bytes"] * f,
                        intermediate_bytes=(p.get("intermediate_bytes") or 0) * f, ok=True))
    return out
shutil.rmtree("/tmp/xg", ignore_errors=True); os.makedirs("/tmp/xg/h")
for name, recs in (("X", X), ("Y", Y)):
    json.dump({"meta": meta, "records": recs}, open(f"/tmp/xg/{name}.json", "w"))
    for seed in ("3201", "3202"):
        for i, c in enumerate(json.load(open(f"{S}/c/choice_check_{seed}.json"))["cases"]):
            json.dump({"meta": meta, "records": recs + case_records(c)},
                      open(f"/tmp/xg/h/{name}_{seed}_{i}.json", "w"))
            open(f"/tmp/xg/h/{name}_{seed}_{i}.key", "w").write(f"{c['pipeline']} {c['size']} {c['dtype']}")
