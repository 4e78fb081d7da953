#!/usr/bin/env python3
"""b/heldout.json and b/old_heldout.json (tools/row_grid.py) as choice_check.py's cases, with the
shipped kernel of each strategy: the padded build's for softmax's and layernorm's staged_row_8k,
block_row_2k and block_row_4k, 13e372e's for the other block forms (assemble.sh: PADDED), for s22's
choice_sweep.py --held.

    python3 results/runs/2026-12-04-h200-s24/heldout_cases.py OUT.json
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PADDED = {(p, s) for p in ("softmax", "layernorm")
          for s in ("staged_row_8k", "block_row_2k", "block_row_4k")}
BOTH = {"staged_row_2k", "staged_row_8k", "staged_row_wide", "block_row_2k", "block_row_4k"}


def main():
    cases = {}
    for name, padded_build in (("heldout.json", True), ("old_heldout.json", False)):
        for r in json.load(open(os.path.join(HERE, "b", name)))["records"]:
            if not r.get("median_us"):
                continue
            shipped_padded = (r["workload"], r["name"]) in PADDED
            if r["name"] in BOTH and shipped_padded != padded_build:
                continue
            key = (r["workload"], r.get("dtype", "float32"), r["size"])
            cases.setdefault(key, {})[r["name"]] = r["median_us"]
    out = [{"pipeline": p, "dtype": d, "size": s, "times_us": t} for (p, d, s), t in sorted(cases.items())]
    json.dump({"cases": out}, open(sys.argv[1], "w"), indent=1)
    print(f"{len(out)} cases")


if __name__ == "__main__":
    main()
