#!/usr/bin/env python3
"""b/peers_rows.json, rebuilt from b/log.txt: the device tool brings back at most 8 files and the
timing call wrote 9, so peers.py's JSON stayed behind; its stderr (every '[peers]' line: each
cell's median of CUDA-event times, host time, relative error, or why it refused or mismatched)
came back in log.txt. Each record takes the fields peers.py writes (min_bytes from
peers/rowmath.py, floor_us from the copy of the same call), plus "rebuilt_from": "log.txt".

    python3 results/runs/2026-12-03-h200-s16/peers_from_log.py   (from the repository root)
"""
import ast
import json
import os
import re
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "..", "peers"))
import rowmath  # noqa: E402

HEAD = re.compile(r"^\[peers\] (\S+) (\S+) (?:(float32|bfloat16|float16) )?(\S+) \.\.\.$")
TIME = re.compile(r"^\[peers\]   ([0-9.]+) us \(events\)(?:, [0-9.]+ TB/s)?, host ([0-9.]+) us, "
                  r"rel err ([0-9.e+-]+)$")
lines = open(os.path.join(here, "b", "log.txt")).read().splitlines()
meta, records, cur = None, [], None
for line in lines:
    if line.startswith("[peers] {'date'"):
        meta = ast.literal_eval(line[len("[peers] "):])
        continue
    m = HEAD.match(line)
    if m:
        wl, size, dtype, name = m.groups()
        cur = {"workload": wl, "size": size, "dtype": dtype or "float32", "kind": "peer",
               "name": name, "median_us": None, "timing": "events", "host_us": None,
               "max_rel_err": None, "ok": False, "rebuilt_from": "log.txt"}
        if wl == "copy":
            cur["min_bytes"] = 8 * int(size)  # float32 read and written
        else:
            n, mm = (int(v) for v in size.split("x"))
            cur["min_bytes"] = rowmath.min_bytes(wl, n, mm, cur["dtype"])
        records.append(cur)
        continue
    if cur is None:
        continue
    m = TIME.match(line)
    if m:
        cur["median_us"], cur["host_us"] = float(m.group(1)), float(m.group(2))
        # peers.py prints a mismatch before the time: such a record keeps ok false.
        cur["max_rel_err"], cur["ok"] = float(m.group(3)), "error" not in cur
    elif line.startswith("[peers]   REFUSED ") or line.startswith("[peers]   MISMATCH "):
        cur["ok"] = False
        cur["error"] = line[len("[peers]   "):]
        if line.startswith("[peers]   REFUSED "):
            cur["refused"] = True
copy = next(r for r in records if r["workload"] == "copy")
meta["copy_bandwidth_GBps"] = round(copy["min_bytes"] / copy["median_us"] / 1e3, 2)
meta["rebuilt_from"] = "b/log.txt (peers.py's stderr in the same call; its JSON did not come back)"
for r in records:
    if r["min_bytes"] is not None:
        r["floor_us"] = round(r["min_bytes"] / meta["copy_bandwidth_GBps"] / 1e3, 3)
json.dump({"meta": meta, "records": records}, open(os.path.join(here, "b", "peers_rows.json"), "w"),
          indent=1)
print(f"{len(records)} records ({sum(r['ok'] for r in records)} ok), copy "
      f"{meta['copy_bandwidth_GBps']} GB/s")
