#!/usr/bin/env bash
# results/h100.json (s40): s39's table with g1/hidden_*.json's cells added (each (pipeline, shape,
# type): every fused row strategy from one run, an H100): ten row lengths no table named (768,
# 1536, 2040, 2560, 3072, 4000, 5120, 6144, 11008, 12288; M = 2^26 / N), the three types. The
# experimental copies timed there (xs2kbv_e, xswbv_e, xl2kbv_e, xl4kbv_e) are the strategies
# s40 shipped with Form::by_vector, byte for byte (device code md5), so their records go in under
# the shipped names and the records of the forms without it (the same names in that call) are
# left out. Then measured.json from the three tables, and h100_choice.txt (the H100's
# leave-one-out under the shipped rule).
#   bash results/runs/2026-12-06-gpu-s40/assemble_h100.sh   (from the repository root; build/)
set -euo pipefail
S=results/runs/2026-12-06-gpu-s40
python3 - "$S" <<'PY'
import glob, json, sys
S = sys.argv[1]
t = json.load(open("results/h100.json"))
rename = {("softmax", "xs2kbv_e"): "staged_row_2k", ("softmax", "xswbv_e"): "staged_row_wide",
          ("layernorm", "xl2kbv_e"): "staged_row_2k", ("layernorm", "xl4kbv_e"): "staged_row_4k"}
shipped = {(w, n) for (w, _), n in rename.items()}
cell = lambda r: (r["workload"], r["size"], r.get("dtype"))
held = {cell(r) for r in t["records"]}
new = []
for p in sorted(glob.glob(f"{S}/g1/hidden_*.json")):
    g = json.load(open(p))
    assert g["meta"]["device"] == t["meta"]["device"], (p, g["meta"]["device"])
    t["meta"]["sources"].append({"file": p, "date": g["meta"]["date"], "argv": g["meta"]["argv"]})
    for r in g["records"]:
        assert cell(r) not in held, cell(r)
        key = (r["workload"], r["name"])
        if key in rename:
            r = dict(r, name=rename[key])
        elif key in shipped:
            continue  # the form without Form::by_vector, no longer built
        new.append(r)
t["records"] += new
t["meta"]["notes"].append(f"s40: {S}/g1/hidden_*.json add {len({cell(r) for r in new})} cells (every "
                          "fused row strategy at ten row lengths no table named, the three types); "
                          "softmax staged_row_2k and staged_row_wide, layernorm staged_row_2k and "
                          "staged_row_4k there are the experimental copies with Form::by_vector, "
                          "the shipped kernels byte for byte")
json.dump(t, open("results/h100.json", "w"), indent=1)
print(f"{len(new)} records added", file=sys.stderr)
PY
build/cli/fuselab tune --fit results/h100.json > $S/h100_choice.txt
build/cli/fuselab tune --fit results/h200.json --fit results/cpu.json --fit results/h100.json \
    --measured-out results/measured.json > /dev/null
