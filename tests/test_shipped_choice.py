#!/usr/bin/env python3
"""The shipped choice never extrapolates from nothing (issue 29): for every device fuselab was
measured on (results/measured.json), every pipeline and storage type that this build has for that
device's target has measured shapes with at least two of its strategies, and the fit of that
device (results/models.json) measured every strategy the table holds a time for. A pipeline or
type added without a measurement fails here, naming it.

  python3 tests/test_shipped_choice.py FUSELAB
"""
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEVICES = {"NVIDIA H200": "cuda", "AMD EPYC": "cpu"}


def main():
    fuselab = sys.argv[1]
    measured = json.load(open(os.path.join(ROOT, "results", "measured.json")))
    models = json.load(open(os.path.join(ROOT, "results", "models.json")))
    problems = []
    for device, target in DEVICES.items():
        table = measured.get("devices", {}).get(device)
        if table is None:
            problems.append(f"results/measured.json has no table for {device}")
            continue
        listed = json.loads(subprocess.run([fuselab, "list", "--json", "--target", target],
                                           capture_output=True, text=True, check=True).stdout)
        built = {}
        for v in listed:
            built.setdefault((v["pipeline"], v.get("dtype", "float32")), set()).add(v["schedule"])
        for (pipeline, dtype), schedules in sorted(built.items()):
            if len(schedules) < 2:
                continue  # nothing to choose between
            shapes = [s for s in table["pipelines"].get(pipeline, {}).get("shapes", [])
                      if s["target"] == target and s["dtype"] == dtype
                      and len(schedules & set(s["us"])) >= 2]
            if not shapes:
                problems.append(f"{device}: {pipeline} {dtype} ({target}) has no measured shape "
                                f"with two of its strategies ({', '.join(sorted(schedules))})")
        fit = models.get(device, {}).get("efficiency", {})
        for pipeline, p in table["pipelines"].items():
            for s in p["shapes"]:
                for schedule in s["us"]:
                    if f"{pipeline}/{schedule}" not in fit and f"*/{schedule}" not in fit:
                        problems.append(f"{device}: the fit never measured {pipeline}/{schedule}, "
                                        f"which the table times at {s['size']}")
    for p in sorted(set(problems)):
        print("FAIL:", p)
    print(f"{len(set(problems))} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
