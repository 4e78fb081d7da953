#!/usr/bin/env python3
"""The padded block forms against 13e372e's, from one call (a/ab_new.json, a/ab_old.json): TB/s at
the minimum bytes for each (pipeline, strategy, type, shape), and the time ratio old / new.

    python3 results/runs/2026-12-04-h200-s24/ab_table.py DIR   (DIR: the call's unpacked folder)
"""
import json
import math
import sys


def load(path):
    out = {}
    for r in json.load(open(path))["records"]:
        if r.get("median_us"):
            key = (r["workload"], r["name"], r.get("dtype", "float32"), r["size"])
            out[key] = r["min_bytes"] / r["median_us"] / 1e6
    return out


def main():
    d = sys.argv[1]
    new, old = load(f"{d}/ab_new.json"), load(f"{d}/ab_old.json")
    suite = {"1024x32768", "2048x16384", "4096x8192", "16384x2048", "65536x512"}
    print("TB/s at the minimum bytes, 2^25 elements; speed-up = old time / new time")
    print(f"{'pipeline':17s} {'strategy':16s} {'dtype':9s} {'NxM':12s} {'old':>6s} {'new':>6s} "
          f"{'speed-up':>8s}")
    logs = {"suite": [], "unnamed": []}
    for key in sorted(new, key=lambda k: (k[0], k[1], k[2], int(k[3].split("x")[0]))):
        if key not in old:
            continue
        ratio = new[key] / old[key]
        logs["suite" if key[3] in suite else "unnamed"].append(math.log(ratio))
        print(f"{key[0]:17s} {key[1]:16s} {key[2]:9s} {key[3]:12s} {old[key]:6.2f} "
              f"{new[key]:6.2f} {ratio:8.2f}")
    for k, v in logs.items():
        if v:
            print(f"{k} N: {len(v)} cells, geometric mean speed-up {math.exp(sum(v) / len(v)):.3f}, "
                  f"min {math.exp(min(v)):.2f}, max {math.exp(max(v)):.2f}")


if __name__ == "__main__":
    main()
