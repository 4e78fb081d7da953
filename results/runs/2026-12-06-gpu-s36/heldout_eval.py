"""s36: the H100 choice at choice_check seed 3302's 36 shapes (c/: every strategy timed there, N 4
to 200, none of the shapes in any table), offline, as s33's heldout_eval.py: each case alone
beside a table, whose leave-one-out then picks at the case's size from the table's other shapes,
as choose() would. Tables: NEW, results/h100.json after assemble_h100.sh (c/'s short rows added);
OLD, the same file before it (git show 64b6544:results/h100.json). Writes /tmp/xh/...; then
  bash results/runs/2026-12-06-gpu-s36/heldout_eval.sh
  python3 results/runs/2026-12-06-gpu-s36/heldout_eval.py   (from the repository root)"""
import json, os, shutil, subprocess
S = "results/runs/2026-12-06-gpu-s36"
rows = ("softmax", "layernorm", "rmsnorm_residual")
def table(doc):
    return [r for r in doc["records"] if r["workload"] in rows and r.get("kind") == "fuselab"]
new = json.load(open("results/h100.json"))
old = json.loads(subprocess.check_output(["git", "show", "64b6544:results/h100.json"]))
meta = new["meta"]
def el(size):
    n, m = size.split("x"); return int(n) * int(m)
proto = {}
for r in table(old) + table(new):
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
shutil.rmtree("/tmp/xh", ignore_errors=True); os.makedirs("/tmp/xh/h")
for name, doc in (("NEW", new), ("OLD", old)):
    recs = table(doc)
    json.dump({"meta": meta, "records": recs}, open(f"/tmp/xh/{name}.json", "w"))
    for i, c in enumerate(json.load(open(f"{S}/c/choice_check_3302.json"))["cases"]):
        json.dump({"meta": meta, "records": recs + case_records(c)}, open(f"/tmp/xh/h/{name}_{i}.json", "w"))
        open(f"/tmp/xh/h/{name}_{i}.key", "w").write(f"{c['pipeline']} {c['size']} {c['dtype']}")
