#!/usr/bin/env python3
"""The choice at row shapes no table names, without timing anything (s40): for each (pipeline,
storage type, N) with M = round(2^E / N) rows, fuselab.kernel(PIPELINE) called on torch tensors
on the GPU with an empty tuning file (as a user's first call), and its .chosen recorded. The
strategies' times at the same shapes come from tools/row_grid.py in the same call, so the regret
is computed afterwards (regret.py) from one run.

  FUSELAB_TUNING_FILE=EMPTY python3 picks.py --json OUT.json --n 768 ... [--elements 26]
"""
import argparse
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.path.insert(0, os.path.join(ROOT, "python"))
import torch  # noqa: E402
import fuselab  # noqa: E402

TYPES = {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16}


def args_of(pipeline, n, m, t):
    x = torch.rand(m, n, device="cuda", dtype=t) * 2 - 1
    if pipeline == "softmax":
        return {"x": x}
    vec = torch.rand(n, device="cuda", dtype=t)
    if pipeline == "rmsnorm_residual":
        return {"x": x, "residual": torch.rand_like(x), "w": vec}
    return {"x": x, "w": vec, "b": torch.rand_like(vec)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--json", required=True)
    ap.add_argument("--n", type=int, action="append", required=True)
    ap.add_argument("--elements", type=float, default=26)
    args = ap.parse_args()
    out = []
    for pipeline in ("softmax", "rmsnorm_residual", "layernorm"):
        for dtype, t in TYPES.items():
            for n in args.n:
                m = max(1, round(2 ** args.elements / n))
                k = fuselab.kernel(pipeline)
                k(**args_of(pipeline, n, m, t))
                torch.cuda.synchronize()
                c = dict(k.chosen)
                out.append({"pipeline": pipeline, "dtype": dtype, "n": n, "m": m,
                            "schedule": c.get("schedule"), "source": c.get("source"),
                            "reason": c.get("reason")})
                print(pipeline, dtype, f"{n}x{m}", c.get("schedule"), c.get("source"), flush=True)
                json.dump(out, open(args.json, "w"), indent=1)


if __name__ == "__main__":
    main()
