#!/usr/bin/env python3
"""Tabulates Nsight Compute's raw CSV of fuselab_row_search --once runs (gpu/row_search.sh): per
kernel, the case it ran (pipeline, dtype, N, candidate: the tool's own lines, in launch order),
its time, DRAM bytes against the minimum, L2, L1 and shared-memory traffic, registers, achieved
occupancy, instructions an element and the top warp stall reasons (cycles a warp waits per
instruction issued, by reason).

    python3 results/rows_ncu_table.py NCU.csv [NCU.csv ...] > rows_ncu.md
"""
import csv
import io
import sys


def load(path):
    text = open(path).read().splitlines(keepends=True)
    quoted = [l for l in text if l.startswith('"')]
    cases = [l.strip().split(",") for l in text
             if l[:1].isalpha() and not l.startswith("op,") and l.count(",") == 7]
    rows = list(csv.reader(io.StringIO("".join(quoted))))
    if len(rows) < 2:
        return []
    hdr, data = rows[0], rows[2:]
    idx = {h: i for i, h in enumerate(hdr)}
    stalls = [h for h in hdr if "issue_stalled" in h and h.endswith("per_issue_active.ratio")]
    out = []
    for case, d in zip(cases, data):
        def g(k):
            try:
                return float(d[idx[k]].replace(",", ""))
            except (KeyError, ValueError):
                return float("nan")
        op, dtype, n, cand = case[0], case[1], int(case[2]), case[3]
        out.append({
            "op": op, "dtype": dtype, "n": n, "candidate": cand,
            "us": g("gpu__time_duration.sum") / 1e3,
            "dram_read": g("dram__bytes_read.sum"), "dram_write": g("dram__bytes_write.sum"),
            "l2": g("lts__t_bytes.sum"), "l1": g("l1tex__t_bytes.sum"),
            "shared_wavefronts": g("l1tex__data_pipe_lsu_wavefronts_mem_shared.sum"),
            "occupancy": g("sm__warps_active.avg.pct_of_peak_sustained_active"),
            "registers": g("launch__registers_per_thread"),
            "inst": g("smsp__inst_executed.sum"),
            "stalls": sorted(((g(h), h.split("stalled_")[1].split("_per")[0]) for h in stalls),
                             reverse=True),
        })
    return out


def main():
    rows = [r for p in sys.argv[1:] for r in load(p)]
    print("| pipeline | dtype | N | kernel of | us | DRAM read / min | DRAM write | L2 | L1 | shared "
          "wavefronts | regs | occupancy | thread instr. / element | top stalls (cycles / issue) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        # --once runs at NCU_ELEMENTS (2^24) elements a call: the elements are the inputs' bytes
        # over the element size; the minimum read is every input once.
        e = 4 if r["dtype"] == "float32" else 2
        inputs = 2 if r["op"] == "rmsnorm_residual" else 1
        elements = 2 ** 24
        min_read = inputs * elements * e
        top = ", ".join(f"{name} {v:.1f}" for v, name in r["stalls"][:3])
        print(f"| {r['op']} | {r['dtype']} | {r['n']} | {r['candidate']} | {r['us']:.1f} | "
              f"{r['dram_read'] / min_read:.2f}x | {r['dram_write'] / 1e6:.0f} MB | "
              f"{r['l2'] / 1e6:.0f} MB | {r['l1'] / 1e6:.0f} MB | {r['shared_wavefronts'] / 1e6:.2f} M | "
              f"{r['registers']:.0f} | {r['occupancy']:.0f}% | {r['inst'] * 32 / elements:.0f} | {top} |")


if __name__ == "__main__":
    main()
