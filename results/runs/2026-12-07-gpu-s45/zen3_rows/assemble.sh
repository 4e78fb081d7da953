#!/usr/bin/env bash
# s45: results/cpu_avx2.json, the measured table of a CPU without AVX-512 ("AMD EPYC (no
# AVX-512)": the Zen 3 of s44 and s45, ../cpu_machine.txt), now the three row pipelines: softmax
# and layernorm from rep.sh's passes p1/ and p2/ (s45), rmsnorm_residual from s44's
# (../../2026-12-07-gpu-s44/zen3_rms/p1, p2; its CPU forms unchanged since), and short rows of
# lengths that are not whole float32 vectors, all three (../zen3_short/p1, p2). Each (shape,
# strategy, type)'s time is the median of its passes' medians; choice.txt, its leave-one-out;
# then results/measured.json from the four tables.
#   bash results/runs/2026-12-07-gpu-s45/zen3_rows/assemble.sh   (from the repository root; build/)
set -euo pipefail
Z=results/runs/2026-12-07-gpu-s45/zen3_rows
Y=results/runs/2026-12-07-gpu-s44/zen3_rms
python3 - "$Z" "$Y" <<'PY'
import glob, json, statistics, sys
Z, Y = sys.argv[1:]
sources = [(p, {"softmax", "layernorm"}) for p in sorted(glob.glob(f"{Z}/p*/*.json"))]
sources += [(p, {"rmsnorm_residual"}) for p in sorted(glob.glob(f"{Y}/p*/*.json"))]
sources += [(p, {"softmax", "layernorm", "rmsnorm_residual"})
            for p in sorted(glob.glob(f"{Z}/../zen3_short/p*/*.json"))]
times, first, dates = {}, {}, set()
for path, pipelines in sources:
    doc = json.load(open(path))
    dates.add(str(doc["meta"].get("date", ""))[:10])
    for r in doc["records"]:
        if r.get("kind") != "fuselab" or not r.get("ok") or r["workload"] not in pipelines:
            continue
        k = (r["workload"], r["size"], r["name"], r.get("dtype", "float32"))
        times.setdefault(k, []).append(r["median_us"])
        first.setdefault(k, r)
recs = [dict(r, median_us=statistics.median(times[k]), passes=len(times[k]))
        for k, r in first.items()]
machine = open(f"{Z}/../cpu_machine.txt").read().splitlines()
meta = {
    "device": "AMD EPYC (no AVX-512)",
    "tool": "fuselab bench --target cpu (results/runs/2026-12-07-gpu-s45/zen3_rows/rep.sh and "
            "zen3_short/rep.sh; rmsnorm_residual: results/runs/2026-12-07-gpu-s44/zen3_rms/rep.sh)",
    "timing": "host wall clock, the bench's median per call; the median over the passes",
    "date": ", ".join(sorted(d for d in dates if d)),
    "sources": [p for p, _ in sources],
    "machine": [l for l in machine if l.split(":")[0].strip() in
                ("Model name", "CPU family", "Model", "Thread(s) per core", "Core(s) per socket",
                 "L1d cache", "L2 cache", "L3 cache")] + ["flags: AVX2, FMA, F16C; no AVX-512"],
    "notes": ["the three row pipelines; every other pipeline falls back to the AVX-512 host's "
              "table (results/cpu.json; runtime/fuselab/measured.h: shipped_measured_tables)"],
}
json.dump({"meta": meta, "records": recs}, open("results/cpu_avx2.json", "w"), indent=0)
print(len(recs), "records,", min(r["passes"] for r in recs), "to",
      max(r["passes"] for r in recs), "passes each")
PY
build/cli/fuselab tune --fit results/cpu_avx2.json > "$Z/choice.txt"
build/cli/fuselab tune --fit results/h200.json --fit results/cpu.json --fit results/h100.json \
    --fit results/cpu_avx2.json --measured-out results/measured.json > /dev/null
