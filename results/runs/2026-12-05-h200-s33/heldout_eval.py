"""s33: the H200 choice at the 36 held-out shapes of b/ (choice_check seed 3301: every strategy
timed there, none of its shapes in any table), offline: each case alone beside a table, the
bench's leave-one-out then picks at the case's size from the table's other shapes, as choose()
would (bench/choice.cpp). Tables: NEW, results/h200.json's row records after assemble.sh (s33's
grid first); OLD, the same file before it (git show 63604f1:results/h200.json). Writes
/tmp/xg/{NEW,OLD}.json and /tmp/xg/h/*.json; heldout_eval.sh runs the fits and prints the scores.
  python3 results/runs/2026-12-05-h200-s33/heldout_eval.py   (from the repository root)"""
import json, os, shutil, subprocess
S = "results/runs/2026-12-05-h200-s33"
rows = ("softmax", "layernorm", "rmsnorm_residual")
def table(doc):
    return [r for r in doc["records"] if r["workload"] in rows and r.get("kind") == "fuselab"]
new = json.load(open("results/h200.json"))
old = json.loads(subprocess.check_output(["git", "show", "63604f1:results/h200.json"]))
meta = new["meta"]["fuselab"] if "fuselab" in new["meta"] else new["meta"]
def el(size):
    n, m = size.split("x"); return int(n) * int(m)
proto = {}
for r in table(old) + table(new):  # new's last: this build's ledgers where both have one
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
for name, doc in (("NEW", new), ("OLD", old)):
    recs = table(doc)
    json.dump({"meta": meta, "records": recs}, open(f"/tmp/xg/{name}.json", "w"))
    for seed in ("3301",):
        for i, c in enumerate(json.load(open(f"{S}/b/choice_check_{seed}.json"))["cases"]):
            json.dump({"meta": meta, "records": recs + case_records(c)},
                      open(f"/tmp/xg/h/{name}_{seed}_{i}.json", "w"))
            open(f"/tmp/xg/h/{name}_{seed}_{i}.key", "w").write(f"{c['pipeline']} {c['size']} {c['dtype']}")
