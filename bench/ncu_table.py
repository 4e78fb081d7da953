#!/usr/bin/env python3
"""Tabulates bench/ncu_run.sh's output: per variant, the kernels Nsight Compute saw in one call
and their DRAM bytes, beside the build-time ledger (kernels) read from `fuselab list`.

    python3 bench/ncu_table.py NCU_CSV [LIST_TXT] > table.md
"""
import csv
import sys


def main():
    lines = open(sys.argv[1]).read().splitlines()
    ledger = {}
    if len(sys.argv) > 2:
        for l in open(sys.argv[2]).read().splitlines()[1:]:
            f = l.split()
            if len(f) > 4 and f[2] == "cuda":
                ledger[(f[0], f[1])] = f[4]
    rows, cur = [], None
    for l in lines:
        if l.startswith("### "):
            cur = {"name": l[4:].split(), "kernels": set(), "read": 0, "write": 0, "ns": 0}
            rows.append(cur)
        elif l.startswith('"') and cur is not None:
            f = next(csv.reader([l]))
            cur["kernels"].add(f[0])
            value = float(f[-1].replace(",", ""))
            metric = f[-3]
            key = {"dram__bytes_read.sum": "read", "dram__bytes_write.sum": "write",
                   "gpu__time_duration.sum": "ns"}.get(metric)
            if key:
                cur[key] += value
    print("| pipeline | schedule | kernels measured | kernels (ledger) | DRAM read MB | DRAM write MB | kernel time us |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        p, s = r["name"]
        print(f"| {p} | {s} | {len(r['kernels'])} | {ledger.get((p, s), '-')} | {r['read'] / 1e6:.1f} | "
              f"{r['write'] / 1e6:.1f} | {r['ns'] / 1e3:.1f} |")


if __name__ == "__main__":
    main()
