#!/usr/bin/env bash
# s43: cpu_avx2.json (here), the CPU table of a host without AVX-512 ("AMD EPYC (no AVX-512)":
# this session's Zen 3, ../cpu_machine.txt), from rep.sh's one pass (p1/) with fix/'s records
# first (the sizes whose cases ran while a build shared the two cores, timed again alone), and
# choice.txt, its leave-one-out. Not shipped: chosen by it, issue 29's held-out check on this CPU
# did no better than by the AVX-512 host's table (../cpu_heldout/zen3_own/ against zen3_shipped/).
# To ship it: --fit it with the other three into results/measured.json (../assemble_h100.sh).
#   bash results/runs/2026-12-06-gpu-s43/zen3_table/assemble.sh   (from the repository root)
set -euo pipefail
Z=results/runs/2026-12-06-gpu-s43/zen3_table
python3 - "$Z" <<'PY'
import glob, json, sys
Z = sys.argv[1]
paths = sorted(glob.glob(f"{Z}/fix/*.json")) + sorted(glob.glob(f"{Z}/p1/*.json"))
seen, recs, dates = set(), [], set()
for path in paths:
    doc = json.load(open(path))
    dates.add(str(doc["meta"].get("date", ""))[:10])
    for r in doc["records"]:
        if r.get("kind") != "fuselab" or not r.get("ok"):
            continue
        k = (r["workload"], r["size"], r["name"], r.get("dtype", "float32"))
        if k not in seen:
            seen.add(k)
            recs.append(r)
machine = open(f"{Z}/../cpu_machine.txt").read().splitlines()
meta = {
    "device": "AMD EPYC (no AVX-512)",
    "tool": "fuselab bench --target cpu (rep.sh)",
    "timing": "host wall clock, the bench's median per call",
    "date": ", ".join(sorted(d for d in dates if d)),
    "sources": [p for p in paths],
    "machine": [l for l in machine if l.split(":")[0].strip() in
                ("Model name", "CPU family", "Model", "Thread(s) per core", "Core(s) per socket",
                 "L1d cache", "L2 cache", "L3 cache")] + ["flags: AVX2, FMA, F16C; no AVX-512"],
    "notes": ["one pass (the Zen 5's CPU table, results/cpu.json, holds medians of three)",
              "the row pipelines only: other pipelines fall back to the AVX-512 host's table "
              "(runtime/fuselab/measured.h: shipped_measured_tables)"],
}
json.dump({"meta": meta, "records": recs}, open(f"{Z}/cpu_avx2.json", "w"), indent=0)
print(len(recs), "records")
PY
build/cli/fuselab tune --fit "$Z/cpu_avx2.json" > "$Z/choice.txt"
