#!/usr/bin/env python3
"""s40: row lengths the suite never names (g1.sh): per (op, type, N), fuselab's fastest strategy,
what fuselab picks with no tuning record (picks.py) and its regret (the pick's time over the
fastest's, same call), the strongest peer and the copy of the same call, in TB/s at the minimum
bytes.

    python3 hidden.py g1
"""
import glob
import json
import os
import sys

TYPES = ["float32", "bfloat16", "float16"]


def main():
    d = sys.argv[1]
    peers = json.load(open(f"{d}/peers_hidden.json"))["records"]
    copy = [r for r in peers if r["workload"] == "copy" and r.get("ok")][0]
    ceil = copy["min_bytes"] / copy["median_us"] / 1e6
    times = {}
    for p in glob.glob(f"{d}/hidden_*.json"):
        for r in json.load(open(p))["records"]:
            if r.get("ok") and r.get("median_us"):
                k = (r["workload"], r["dtype"], int(r["size"].split("x")[0]))
                times.setdefault(k, {})[r["name"]] = (r["median_us"], r["min_bytes"])
    picks = {}
    if os.path.exists(f"{d}/picks.json"):
        picks = {(p["pipeline"], p["dtype"], p["n"]): p for p in json.load(open(f"{d}/picks.json"))}
    pe = {}
    for r in peers:
        if r["workload"] == "copy" or not r.get("ok") or not r.get("median_us"):
            continue
        k = (r["workload"], r["dtype"], int(r["size"].split("x")[0]))
        tb = r["min_bytes"] / r["median_us"] / 1e6
        if k not in pe or tb > pe[k][0]:
            pe[k] = (tb, r["name"])
    print(f"copy: {ceil:.3f} TB/s ({copy['name']}, {copy['median_us']:.1f} us for {copy['min_bytes']} bytes)\n")
    print("| op | dtype | N | fuselab best | TB/s | of copy | pick (no record) | regret | strongest peer | TB/s | best / peer |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    n93 = ahead = cells = within = picked = 0
    regrets = []
    for k in sorted(times, key=lambda k: (k[0], TYPES.index(k[1]), k[2])):
        t = {s: v for s, v in times[k].items() if not s.startswith("x")}
        best = min(t, key=lambda s: t[s][0])
        us, mb = t[best]
        tb = mb / us / 1e6
        n93 += tb / ceil >= 0.93
        pk = picks.get(k)
        ps = "- | -"
        if pk and pk["schedule"] in t:
            reg = t[pk["schedule"]][0] / us
            regrets.append(reg)
            picked += 1
            within += reg <= 1.10
            ps = f"{pk['schedule']} | {reg:.2f}"
        elif pk:
            ps = f"{pk['schedule']} | not timed"
        p = pe.get(k)
        qs = "- | - | -"
        if p:
            cells += 1
            ahead += tb >= p[0] or (tb / ceil > 0.95 and p[0] / ceil > 0.95 and tb >= 0.99 * p[0])
            qs = f"{p[1]} | {p[0]:.2f} | {tb / p[0]:.3f}"
        print(f"| {k[0]} | {k[1]} | {k[2]} | {best} | {tb:.2f} | {tb / ceil:.3f} | {ps} | {qs} |")
    gm = 1.0
    for r in regrets:
        gm *= r ** (1 / max(1, len(regrets)))
    print(f"\nfuselab's best at or ahead of the strongest peer (a gap under 1% above 0.95 of the copy a tie): "
          f"{ahead} of {cells}; at least 0.93 of the copy: {n93} of {len(times)}; the pick within 1.10x of "
          f"the fastest: {within} of {picked} (geometric mean {gm:.3f}, worst {max(regrets, default=0):.2f})")


def experiments(d):
    """The experimental copies (Form::by_vector) against the strategies they copy, same call."""
    base = {"xs2kbv_e": "staged_row_2k", "xswbv_e": "staged_row_wide", "xl2kbv_e": "staged_row_2k",
            "xl4kbv_e": "staged_row_4k"}
    print("\n| op | dtype | N | copy | base us | copy us | base / copy | best shipped -> best with copies |")
    print("|---|---|---|---|---|---|---|---|")
    for p in sorted(glob.glob(f"{d}/hidden_*.json")):
        t = {}
        for r in json.load(open(p))["records"]:
            if r.get("ok") and r.get("median_us"):
                t.setdefault((r["workload"], r["dtype"], int(r["size"].split("x")[0])), {})[r["name"]] = r["median_us"]
        for k in sorted(t, key=lambda k: (TYPES.index(k[1]), k[2])):
            row = t[k]
            shipped = {s: u for s, u in row.items() if not s.startswith("x")}
            bs, be = min(shipped, key=shipped.get), min(row, key=row.get)
            for x, b in base.items():
                if x in row and b in row:
                    print(f"| {k[0]} | {k[1]} | {k[2]} | {x} | {row[b]:.1f} | {row[x]:.1f} | {row[b] / row[x]:.3f} | "
                          f"{bs} {shipped[bs]:.1f} -> {be} {row[be]:.1f} ({shipped[bs] / row[be]:.3f}) |")


if __name__ == "__main__":
    main()
    experiments(sys.argv[1])
