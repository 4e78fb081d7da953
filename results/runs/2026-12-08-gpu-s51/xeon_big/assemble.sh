#!/usr/bin/env bash
# s51 (s50's assemble.sh with xeon_big's pass added): results/cpu_xeon.json, the measured table of
# the 2-core Intel Xeon named "Intel(R) Xeon(R) Processor" (s48 to s50's passes on model 207,
# AVX-512, a 260 MiB L3: ../../2026-12-07-gpu-s48/cpu_machine.txt; this session's rows of 2^26
# elements on model 167, AMX, a 480 MiB L3: ../cpu_machine.txt), the three row pipelines: each
# (shape, strategy, type)'s time is the median of its passes' medians; choice.txt, its
# leave-one-out; then results/measured.json from the five tables.
#   bash results/runs/2026-12-08-gpu-s51/xeon_big/assemble.sh   (from the repository root; build/)
set -euo pipefail
Z=results/runs/2026-12-08-gpu-s51/xeon_big
Z50=results/runs/2026-12-07-gpu-s50/xeon_mid
Z49=results/runs/2026-12-07-gpu-s49/xeon_short
Z48=results/runs/2026-12-07-gpu-s48/xeon_rows
python3 - "$Z" "$Z48" "$Z49" "$Z50" <<'PY'
import glob, json, statistics, sys
Z, Z48, Z49, Z50 = sys.argv[1:5]
sources = (sorted(glob.glob(f"{Z48}/p*/*.json")) + sorted(glob.glob(f"{Z49}/p*/*.json"))
           + sorted(glob.glob(f"{Z50}/p*/*.json")) + sorted(glob.glob(f"{Z}/p*/*.json")))
times, first, dates = {}, {}, set()
for path in sources:
    doc = json.load(open(path))
    dates.add(str(doc["meta"].get("date", ""))[:10])
    for r in doc["records"]:
        if r.get("kind") != "fuselab" or not r.get("ok"):
            continue
        k = (r["workload"], r["size"], r["name"], r.get("dtype", "float32"))
        times.setdefault(k, []).append(r["median_us"])
        first.setdefault(k, r)
recs = [dict(r, median_us=statistics.median(times[k]), passes=len(times[k]))
        for k, r in first.items()]
machine = open(f"{Z48}/../cpu_machine.txt").read().splitlines()
meta = {
    "device": "Intel(R) Xeon(R) Processor",
    "tool": "fuselab bench --target cpu (results/runs/2026-12-07-gpu-s48/xeon_rows/rep.sh, two passes; results/runs/2026-12-07-gpu-s49/xeon_short/rep.sh and results/runs/2026-12-07-gpu-s50/xeon_mid/rep.sh, one pass each; results/runs/2026-12-08-gpu-s51/xeon_big/rep.sh, one pass on model 167)",
    "timing": "host wall clock, the bench's median per call; the median over the passes",
    "date": ", ".join(sorted(d for d in dates if d)),
    "sources": sources,
    "machine": [l for l in machine if l.split(":")[0].strip() in
                ("Model name", "CPU family", "Model", "Thread(s) per core", "Core(s) per socket",
                 "L1d cache", "L2 cache", "L3 cache")] + ["flags: AVX-512 (F, CD, BW, DQ, VL), AVX2, FMA, F16C"],
    "notes": ["the three row pipelines; every other pipeline falls back to every shipped CPU "
              "table, the AVX-512 ones first (runtime/fuselab/measured.h: shipped_measured_tables)",
              "the rows of 2^26 elements (s51) were timed on another VM of the same name: model 167, "
              "AMX, a 480 MiB L3; the machine lines above are model 207's, where the rest was timed"],
}
json.dump({"meta": meta, "records": recs}, open("results/cpu_xeon.json", "w"), indent=0)
print(len(recs), "records,", min(r["passes"] for r in recs), "to",
      max(r["passes"] for r in recs), "passes each")
PY
# choice.txt and measured.json
build/cli/fuselab tune --fit results/cpu_xeon.json > "$Z/choice.txt"
build/cli/fuselab tune --fit results/h200.json --fit results/cpu.json --fit results/h100.json \
    --fit results/cpu_avx2.json --fit results/cpu_xeon.json --measured-out results/measured.json \
    > /dev/null
