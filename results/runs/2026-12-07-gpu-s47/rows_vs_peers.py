#!/usr/bin/env python3
"""s43 (s36's, reading p1/suite_*.json): fuselab's fastest row strategy beside the strongest peer and the copy of the same call
(b/: row_grid over every strategy, then peers.py --workload rows), per (op, type, N), in TB/s at
the minimum bytes, with issue 30's targets marked on this GPU's own copy.

    python3 rows_vs_peers.py b
"""
import glob
import json
import sys


def main():
    d = sys.argv[1]
    peers = json.load(open(f"{d}/peers_rows.json"))["records"]
    copy = [r for r in peers if r["workload"] == "copy" and r.get("ok")][0]
    ceil = copy["min_bytes"] / copy["median_us"] / 1e6
    fl = {}
    for p in glob.glob(f"{d}/suite_*.json"):
        for r in json.load(open(p))["records"]:
            if r.get("ok") and r.get("median_us"):
                k = (r["workload"], r["dtype"], int(r["size"].split("x")[0]))
                tb = r["min_bytes"] / r["median_us"] / 1e6
                if k not in fl or tb > fl[k][0]:
                    fl[k] = (tb, r["name"])
    pe = {}
    for r in peers:
        if r["workload"] == "copy" or not r.get("ok") or not r.get("median_us"):
            continue
        k = (r["workload"], r["dtype"], int(r["size"].split("x")[0]))
        tb = r["min_bytes"] / r["median_us"] / 1e6
        if k not in pe or tb > pe[k][0]:
            pe[k] = (tb, r["name"])
    print(f"copy: {ceil:.3f} TB/s ({copy['name']}, {copy['median_us']:.1f} us for {copy['min_bytes']} bytes)\n")
    print("| op | dtype | N | fuselab best | TB/s | of copy | strongest peer | TB/s | fuselab / peer | 0.93 (N <= 16384) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    held = tot = ahead = cells = 0
    for k in sorted(fl, key=lambda k: (k[0], ["float32", "bfloat16", "float16"].index(k[1]), k[2])):
        f, p = fl[k], pe.get(k)
        mark = ""
        if k[2] <= 16384:
            tot += 1
            ok = f[0] / ceil >= 0.93
            held += ok
            mark = "yes" if ok else "no"
        if p:
            cells += 1
            ahead += f[0] >= p[0] or (f[0] / ceil > 0.95 and p[0] / ceil > 0.95 and f[0] >= 0.99 * p[0])
        ps = f"{p[1]} | {p[0]:.2f} | {f[0] / p[0]:.3f}" if p else "- | - | -"
        print(f"| {k[0]} | {k[1]} | {k[2]} | {f[1]} | {f[0]:.2f} | {f[0] / ceil:.3f} | {ps} | {mark} |")
    print(f"\nat or ahead of the strongest peer (a gap under 1% above 0.95 of the copy a tie): {ahead} of {cells}; "
          f"at least 0.93 of the copy at N <= 16384: {held} of {tot}")


if __name__ == "__main__":
    main()
