#!/usr/bin/env python3
"""One GPU session's runs into the results: h200.json, h200.md, h200.png.

    python3 results/report.py --run DIR --out results
    python3 results/report.py --plot results/h200.json --out results   # only the charts, from the table

DIR holds what that session's device calls brought back (gpu/gpu_run.sh and the scripts it
runs): machine.txt; bench_cuda.json (`fuselab bench --target cuda`: fuselab's strategies and the
hand-written CUDA kernels), and any bench_*.json of pipelines it did not reach; peers.json
(peers/peers.py: PyTorch eager, torch.compile and its modes, same machine, same sizes), and
peers_rows*.json (the same script's row-reduction calls, --workload rows) where those were not
merged into it;
torch_*.json (peers/torch_bench.py: fuselab called from PyTorch, kinds fuselab_torch and
fuselab_graph, beside eager and reduce-overhead); list.json (`fuselab list --json` of the
binaries that ran: registers, spills, shared memory per kernel); optionally bench_cupti.json.
floor_us is the larger of the bytes floor (fewest bytes / the device copy bandwidth measured in
the same session) and, for the convs, the arithmetic floor at the fp32 datasheet rate (67 TFLOP/s,
a lead, not a measurement). median_us is the measure each record's `timing` names: "events"
(CUDA events around each call after a 256 MB L2 flush) or "host"; host_us is wall clock per call
over back-to-back batches of at least 20 ms ending with a device sync.

The row reductions (issue 23: softmax, rmsnorm_residual, layernorm; sizes NxM, every record with
its storage type in `dtype`, absent meaning float32) get their own part of h200.md (TB/s at the
minimum bytes over N, fuselab's best and each peer, each with its fraction of the same session's
copy bandwidth; then every fuselab strategy), their own chart h200_rows.png (TB/s over N, one
panel per op and type), and issue 23's targets, evaluated into h200.json's `targets` (each with
`held` and the figures of every cell it covers); they stay out of the per-size tables and
h200.png of the other workloads.
"""
import argparse
import glob
import json
import os
import re
import sys

import choice_table  # results/, on sys.path when run as a script

FP32_PEAK_FLOPS = 67e12  # H200 SXM datasheet fp32 (a lead, not a measurement)

# Issue 14's absolute targets: (workload, size, bound on fuselab's best, text). Beside them, every
# (workload, size) with peers must have fuselab's best at or below the best peer's median.
TARGETS = [
    ("stencil_chain_k2", "8192x8192", 150, "<= 150 us"),
    ("stencil_chain_k4", "8192x8192", 200, "<= 200 us"),
    ("stencil_chain_k8", "8192x8192", 300, "<= 300 us"),
    ("conv_relu_pool", "3840x2160x3x16", 190, "<= 190 us"),
]
BLUR = ("blur3x3", "8192x8192", 0.90)  # at least this fraction of the copy bandwidth
FUSELAB_KINDS = ("fuselab",)  # "fuselab's best": the Halide strategies (hand-written CUDA apart)

# The row reductions (issue 23).
ROWS = ("softmax", "rmsnorm_residual", "layernorm")
ROW_DTYPES = ("float32", "bfloat16", "float16")
ROW_N = (256, 1024, 4096, 16384, 65536, 262144)
ROW_PEERS = ("torch_eager", "torch_compile", "torch_compile_max_autotune", "liger")  # table order
ROW_FLOOR = {"softmax": 0.62, "layernorm": 0.62, "rmsnorm_residual": 0.74}  # rows that do not fit
ROW_DRAM_BOUND = {"softmax": 2 / 3, "layernorm": 2 / 3, "rmsnorm_residual": 4 / 5}  # a second DRAM read of x
TIE_ABOVE, TIE_GAP = 0.95, 0.01  # both above 0.95 of the copy: a gap under 1% is a tie


def load(path):
    with open(path) as f:
        return json.load(f)


def fuselab_timing(r):
    """(timing, host_us) of a fuselab bench record; one from before event timing has neither
    field, and its median_us was the host figure."""
    if "timing" in r:
        return r.get("timing"), r.get("host_us")
    return ("host", r.get("median_us")) if r.get("median_us") is not None else (None, None)


def us(x):
    return "-" if x is None else f"{x:.1f}"


def sweep_section(sweep):
    """The seed's §1.5 model, time = launches x t_launch + bytes / bandwidth, fitted by least
    squares over every Halide variant of the sweep (bytes: the fewest, plus each intermediate
    written and read once). On host wall times (host_us): the launch cost is what the model is
    about, and the event measure hides it behind the L2 flush."""
    sweep = [{**r, "median_us": fuselab_timing(r)[1]} for r in sweep]
    sweep = [r for r in sweep if r["median_us"]]
    out = ["## Launch cost against traffic (seed §1.5): N = 2^10 .. 2^28", "",
           "Host wall clock per call (host us: back-to-back batches, a device sync per batch).", ""]
    names = sorted({(r["workload"], r["name"]) for r in sweep})
    sizes = sorted({int(r["size"]) for r in sweep})
    out += ["| workload | name | kernels | " + " | ".join(f"2^{n.bit_length() - 1}" for n in sizes) + " |",
            "|---|---|---|" + "---|" * len(sizes)]
    for wl, name in names:
        rs = {int(r["size"]): r for r in sweep if (r["workload"], r["name"]) == (wl, name)}
        k = next(iter(rs.values())).get("kernels")
        out.append(f"| {wl} | {name} | {k if k is not None else '-'} | " +
                   " | ".join(f"{rs[n]['median_us']:.1f}" if n in rs else "-" for n in sizes) + " |")
    fit = [r for r in sweep if r["kind"] == "fuselab" and r.get("kernels") and r.get("intermediate_bytes") is not None
           and r["name"] != "auto"]
    if fit:
        # Least squares by the 2x2 normal equations (plain Python: the GPU machine's python3 may
        # lack numpy).
        rows = [(r["kernels"], (r["min_bytes"] + 2 * r["intermediate_bytes"]) / 1e9) for r in fit]
        t = [r["median_us"] for r in fit]
        skk = sum(k * k for k, _ in rows)
        skg = sum(k * g for k, g in rows)
        sgg = sum(g * g for _, g in rows)
        skt = sum(k * y for (k, _), y in zip(rows, t))
        sgt = sum(g * y for (_, g), y in zip(rows, t))
        det = skk * sgg - skg * skg
        t_launch = (skt * sgg - sgt * skg) / det
        us_per_gb = (sgt * skk - skt * skg) / det
        pred = [t_launch * k + us_per_gb * g for k, g in rows]
        worst = max(abs(p - m) / m for p, m in zip(pred, t))
        out += ["", f"Fit over {len(fit)} hand-scheduled Halide runs: t_launch = {t_launch:.2f} us per kernel, "
                f"bandwidth = {1e6 / us_per_gb:.0f} GB/s; the largest relative miss is {100 * worst:.0f}%."]
        seed = {int(r["size"]): r["median_us"] for r in sweep if r["name"] == "seed_unfused"}
        seed1 = {int(r["size"]): r["median_us"] for r in sweep if r["name"] == "seed_fused"}
        small = [n for n in sizes if n in seed and n in seed1 and n <= 1 << 16]
        if small:
            bare = sum(seed[n] - seed1[n] for n in small) / len(small)
            out.append(f"A bare CUDA launch (the seed's second kernel, N <= 2^16): {bare:.2f} us.")
        pc = {(int(r["size"]), r["name"]): r["median_us"] for r in sweep if r["workload"] == "pointwise_chain"}
        ratios = [f"2^{n.bit_length() - 1}: {pc[(n, 'unfused')] / pc[(n, 'fused')]:.1f}x" for n in sizes
                  if (n, "unfused") in pc and (n, "fused") in pc]
        out.append("pointwise_chain unfused / fused (the seed's predicted ~100x): " + ", ".join(ratios) + ".")
    return out + [""]


def dtype_of(r):
    """A record's storage type: its `dtype`, float32 where it has none (every record before the
    row reductions)."""
    return r.get("dtype") or "float32"


def is_refused(r):
    """A documented limit's refusal: peers.py's `refused`, fuselab bench's error_kind "refusal"."""
    return bool(r.get("refused") or r.get("error_kind") == "refusal")


def key_of(r):
    return (r["workload"], r["size"], r["name"], dtype_of(r))


def peer_record(r):
    return {"workload": r["workload"], "size": r["size"], "name": r["name"], "kind": "peer",
            "dtype": dtype_of(r), "refused": is_refused(r),
            "median_us": r.get("median_us"),
            "timing": r.get("timing", "events") if r.get("median_us") is not None else None,
            "host_us": r.get("host_us"), "kernels": None, "intermediate_bytes": None,
            "min_bytes": r.get("min_bytes"), "flops": None, "ok": r.get("ok"),
            "rel_err": r.get("max_rel_err"), "error": r.get("error"), "compile_s": r.get("compile_s")}


def graph_section(records):
    """Seed §1.1 against §1.2: what a CUDA graph (no launch cost) saves the multi-kernel
    strategies, against what fusion saves."""
    g = {(r["workload"], r["size"], r["name"]): r for r in records if r["kind"] == "fuselab_graph"}
    out = ["## CUDA graphs: launches against traffic (seed §1.1 against §1.2)", "",
           "fuselab called through the Python package on torch CUDA tensors, directly and replayed from a "
           "CUDA graph captured on a side stream (`_graph`), beside torch eager and torch.compile "
           "`reduce-overhead` (itself a CUDA graph). `launch share` is how much of unfused's loss against fused "
           "the graph removes: (unfused - unfused_graph) / (unfused - fused_graph); the rest is intermediate "
           "traffic, which no graph removes.", "",
           "| workload | size | strategy | kernels | direct us | graph us | fused graph us | launch share |",
           "|---|---|---|---|---|---|---|---|"]
    for (wl, size, name), r in sorted(g.items()):
        if name.endswith("_graph") or name == "fused":
            continue
        rg, fg = g.get((wl, size, name + "_graph")), g.get((wl, size, "fused_graph"))
        if not rg or not fg or not r.get("median_us") or not rg.get("median_us"):
            continue
        loss = r["median_us"] - fg["median_us"]
        share = (r["median_us"] - rg["median_us"]) / loss if loss > 0 else float("nan")
        out.append(f"| {wl} | {size} | {name} | {r.get('kernels') or '-'} | {r['median_us']:.1f} | "
                   f"{rg['median_us']:.1f} | {fg['median_us']:.1f} | {100 * share:.0f}% |")
    return out + [""]


def resources_section(listed):
    """Seed §1.6: registers, spills and shared memory of every CUDA kernel (ptxas, build time)."""
    out = ["## Registers, spills and shared memory per CUDA kernel (seed §1.6)", "",
           "From `fuselab list --json` of the binaries that ran: ptxas -arch=sm_90 on each variant's PTX "
           "under the runtime's 128-register cap (build time); shared memory per block is static plus "
           "Halide's dynamic where the statement gives it as a constant (`launch`: sized at each launch).", "",
           "| variant | kernel | registers | spill store B | spill load B | shared B | threads |",
           "|---|---|---|---|---|---|---|"]
    for v in listed:
        for k in v.get("cuda_kernels", []):
            sh = k["shared_bytes"] if k["shared_bytes"] is not None else "launch"
            out.append(f"| {v['pipeline']}/{v['schedule']} | {k['name']} | {k['registers']} | "
                       f"{k['spill_store_bytes']} | {k['spill_load_bytes']} | {sh} | {k['threads'] or '-'} |")
    return out + [""]


def chart(records, path):
    """h200.png: one panel per (workload, size) in the records' order, bars fastest first. The
    --run path and --plot (from h200.json, whose records are the same list) both draw through
    here."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from plotting import time_axis
    except ImportError:
        print("report: no matplotlib, no chart", file=sys.stderr)
        return False
    groups = {}
    for r in records:
        groups.setdefault((r["workload"], r["size"]), []).append(r)
    colors_of = {"peer": "tab:orange", "seed_cuda": "tab:green", "fuselab_torch": "tab:purple",
                 "fuselab_graph": "tab:red"}
    label = {"fuselab_torch": " (from torch)", "fuselab_graph": " (from torch)"}
    keys = list(groups)
    cols = 3
    rows_n = (len(keys) + cols - 1) // cols
    fig, axes = plt.subplots(rows_n, cols, figsize=(6 * cols, 3.4 * rows_n), squeeze=False)
    for ax, key in zip(axes.flat, keys):
        rs = sorted([r for r in groups[key] if r.get("median_us")], key=lambda r: r["median_us"])
        ax.barh([r["name"] + ("" if r["name"].endswith("_graph") else label.get(r["kind"], ""))
                 for r in rs], [r["median_us"] for r in rs],
                color=[colors_of.get(r["kind"], "tab:blue") for r in rs])
        floors = [r["floor_us"] for r in rs if r.get("floor_us")]
        floor = min(floors) if floors else None
        if floor:
            ax.axvline(floor, color="black", linestyle="--", linewidth=1)
        log = time_axis(ax, [r["median_us"] for r in rs] + [floor])
        ax.set_title(f"{key[0]} {key[1]}", fontsize=9)
        ax.set_xlabel(f"us{' (log)' if log else ''}; dashed: floor", fontsize=8)
        ax.tick_params(axis="y", labelsize=6)
        ax.tick_params(axis="x", labelsize=7)
        ax.invert_yaxis()
    for ax in list(axes.flat)[len(keys):]:
        ax.axis("off")
    fig.suptitle("fuselab strategies (blue), hand-written CUDA (green), fuselab from PyTorch (purple) and in "
                 "CUDA graphs (red), PyTorch peers (orange): one H200 session", fontsize=11)
    fig.tight_layout(rect=(0, 0, 1, 0.98))
    fig.savefig(path, dpi=80)
    plt.close(fig)
    return True


# ---------------------------------------------------------------- the row reductions (issue 23)
def row_n(r):
    return int(str(r["size"]).lower().split("x")[0])


def tbps(r):
    return r["min_bytes"] / r["median_us"] / 1e6 if r.get("median_us") and r.get("min_bytes") else None


def usable(r):
    return bool(r.get("ok") and r.get("median_us") and r.get("min_bytes"))


def row_m(r):
    parts = str(r["size"]).lower().split("x")
    return int(parts[1]) if len(parts) > 1 else 1


def row_cells(records, suite_only=False):
    """{(workload, dtype, N): [records]} of the row reductions at 2^26 elements a call (M = 2^26 / N,
    rounded down), or 2^25 where no larger shape of that N was timed (the grid's launch-bound
    shapes of 16 rows are the choice's, not these tables'), at the suite's six N only with
    `suite_only`."""
    keep = [r for r in records if r["workload"] in ROWS and row_n(r) * row_m(r) >= 1 << 25
            and (not suite_only or row_n(r) in ROW_N)]
    # One shape a cell, the largest timed (2^26 over 2^25 elements): a cell's records are then of
    # one size, so its fastest is the fastest strategy, and its peers those of the same call.
    largest = {}
    for r in keep:
        k = (r["workload"], dtype_of(r), row_n(r))
        largest[k] = max(largest.get(k, 0), row_m(r))
    cells = {}
    for r in keep:
        k = (r["workload"], dtype_of(r), row_n(r))
        if row_m(r) == largest[k]:
            cells.setdefault(k, []).append(r)
    return cells


def row_best(rows, kind):
    ok = [r for r in rows if r["kind"] == kind and usable(r)]
    return min(ok, key=lambda r: r["median_us"]) if ok else None


def row_cell_figures(wl, dtype, n, rows, copy_tbps):
    """One cell's figures for the targets: fuselab's best and the strongest peer."""
    f, p = row_best(rows, "fuselab"), row_best(rows, "peer")
    c = {"workload": wl, "dtype": dtype, "n": n, "size": (f or p or rows[0])["size"]}
    for tag, r in (("fuselab", f), ("peer", p)):
        if r:
            c.update({tag: r["name"], f"{tag}_us": round(r["median_us"], 3), f"{tag}_tbps": round(tbps(r), 3),
                      f"{tag}_fraction": round(tbps(r) / copy_tbps, 4) if copy_tbps else None})
    return c


def row_targets(records, copy_gbps):
    """Issue 23's H200 targets on this session's records, one entry each: {"target", "value",
    "held", "cells": [...]}; held only where every cell the target covers was measured and held."""
    cells = row_cells(records)
    if not cells:
        return []
    copy_tbps = copy_gbps / 1e3 if copy_gbps else None
    fig = {k: row_cell_figures(*k, v, copy_tbps) for k, v in cells.items()}

    def cell(wl, dt, n):
        return dict(fig.get((wl, dt, n)) or {"workload": wl, "dtype": dt, "n": n})

    def entry(text, keys, judge, what):
        out, missing, failed = [], [], []
        for k in keys:
            c = cell(*k)
            held = judge(c)
            c["held"] = held
            out.append(c)
            if held is None:
                missing.append(k)
            elif not held:
                failed.append(c)
        done = len(keys) - len(missing)
        value = f"{done - len(failed)} of {len(keys)} cells held"
        if failed:
            value += "; not held: " + ", ".join(f"{c['workload']} {c['dtype']} N={c['n']} ({what(c)})" for c in failed[:12])
            value += " ..." if len(failed) > 12 else ""
        if missing:
            value += f"; {len(missing)} not measured"
        return {"target": text, "value": value, "held": not missing and not failed, "cells": out}

    frac = lambda c: c.get("fuselab_fraction")  # noqa: E731
    every = [(wl, dt, n) for wl in ROWS for dt in ROW_DTYPES for n in ROW_N]

    def vs_peer(c):
        if c.get("fuselab_us") is None or c.get("peer_us") is None or not copy_tbps:
            return None
        f, p = c["fuselab_us"], c["peer_us"]
        c["tie"] = f > p and c["fuselab_fraction"] > TIE_ABOVE and c["peer_fraction"] > TIE_ABOVE and \
            f <= p * (1 + TIE_GAP)
        return f <= p or c["tie"]

    def at_least(bound_of):
        def judge(c):
            if frac(c) is None:
                return None
            c["bound"] = round(bound_of(c), 4)
            return frac(c) >= c["bound"]
        return judge

    def above(bound_of):
        def judge(c):
            if frac(c) is None:
                return None
            c["bound"] = round(bound_of(c), 4)
            return frac(c) > c["bound"]
        return judge

    peer_txt = lambda c: (f"{c.get('fuselab')} {c.get('fuselab_tbps')} against {c.get('peer')} "  # noqa: E731
                          f"{c.get('peer_tbps')} TB/s")
    frac_txt = lambda c: f"{c.get('fuselab')} {frac(c):.3f} of the copy"  # noqa: E731
    long_rows = [(wl, "float32", 65536) for wl in ROWS] + [(wl, dt, 262144) for wl in ROWS for dt in ROW_DTYPES]
    return [
        entry("issue 23: fuselab's best at or below the strongest peer of the same session at every (op, type, "
              "N = 256 .. 262144); where both are above 0.95 of the copy, a gap under 1% is a tie",
              every, vs_peer, peer_txt),
        entry("issue 23: fuselab's best at least 0.93 of the copy at N = 256 .. 16384, every op and type",
              [k for k in every if k[2] <= 16384], at_least(lambda c: 0.93), frac_txt),
        entry("issue 23: at least 0.85 of the copy where a row fits one multiprocessor's shared memory "
              "(bfloat16 and float16 at N = 65536)",
              [(wl, dt, 65536) for wl in ROWS for dt in ("bfloat16", "float16")], at_least(lambda c: 0.85), frac_txt),
        entry("issue 23: where a row does not fit (float32 at N = 65536, every type at 262144), at least 0.62 of "
              "the copy for softmax and layernorm and 0.74 for rmsnorm_residual",
              long_rows, at_least(lambda c: ROW_FLOOR[c["workload"]]), frac_txt),
        dict(entry("issue 23, the moonshot: above the bound of a second read of x from DRAM (2/3 of the copy for "
                   "softmax and layernorm, 4/5 for rmsnorm_residual) where a row does not fit",
                   long_rows, above(lambda c: ROW_DRAM_BOUND[c["workload"]]), frac_txt), moonshot=True),
    ]


def row_cell_text(r, copy_tbps, strategy=False):
    """A table cell: TB/s (fraction of the copy), or why there is none."""
    if r is None:
        return "-"
    if is_refused(r):
        return "refused"
    err = str(r.get("error") or "")
    if not r.get("median_us"):
        return "skipped" if err.startswith("skipped") else "error"
    t = tbps(r)
    txt = f"{t:.2f}" + (f" ({t / copy_tbps:.2f})" if copy_tbps else "")
    if not r.get("ok"):
        txt = f"wrong: {txt}"
    return txt + (f" {r['name']}" if strategy else "")


def rows_section(records, copy_gbps, targets):
    """h200.md's part on the row reductions."""
    cells = row_cells(records, suite_only=True)
    if not cells:
        return []
    copy_tbps = copy_gbps / 1e3 if copy_gbps else None
    ns = sorted({k[2] for k in cells})
    head = "| type | | " + " | ".join(f"N={n}" for n in ns) + " |"
    rule = "|---|---|" + "---|" * len(ns)
    lines = ["## Row reductions (issue 23): TB/s over the row length", "",
             "TB/s at the minimum bytes (every input read once, every output written once, at the storage type's "
             f"size), events timing; in parentheses the fraction of the same session's device copy"
             + (f" ({copy_tbps:.2f} TB/s)" if copy_tbps else "") + ". Sizes NxM with M = 2^26 / N. fuselab's best: "
             "the fastest correct strategy, named. `refused`: the peer's documented limit (Liger past N = 65536); "
             "`wrong`: outside the type's tolerance against float64 (not counted as the strongest peer); "
             "`skipped`: past the run's time budget. Chart: h200_rows.png.", ""]
    if targets:
        lines += ["### Targets (issue 23)", "", "| target | this session | held |", "|---|---|---|"]
        lines += [f"| {t['target']} | {t['value']} | {'yes' if t['held'] else 'no'} |" for t in targets]
        lines.append("")
    present_peers = [p for p in ROW_PEERS if any(r["kind"] == "peer" and r["name"] == p
                                                  for rows in cells.values() for r in rows)]
    present_peers += sorted({r["name"] for rows in cells.values() for r in rows if r["kind"] == "peer"}
                            - set(present_peers))
    for wl in ROWS:
        dts = [dt for dt in ROW_DTYPES if any(k[:2] == (wl, dt) for k in cells)]
        if not dts:
            continue
        lines += [f"### {wl}", "", head, rule]
        for dt in dts:
            cs = [cells.get((wl, dt, n), []) for n in ns]
            best = [row_best(c, "fuselab") for c in cs]
            lines.append(f"| {dt} | **fuselab** | " + " | ".join(row_cell_text(b, copy_tbps, True) for b in best) + " |")
            for p in present_peers:
                rs = [next((r for r in c if r["kind"] == "peer" and r["name"] == p), None) for c in cs]
                if any(rs):
                    lines.append(f"| {dt} | {p} | " + " | ".join(row_cell_text(r, copy_tbps) for r in rs) + " |")
        lines.append("")
    lines += ["### Every fuselab strategy (TB/s, fraction of the copy)", "",
              "| op | type | strategy | " + " | ".join(f"N={n}" for n in ns) + " |",
              "|---|---|---|" + "---|" * len(ns)]
    for wl in ROWS:
        for dt in ROW_DTYPES:
            names = sorted({r["name"] for n in ns for r in cells.get((wl, dt, n), []) if r["kind"] == "fuselab"})
            for name in names:
                rs = [next((r for r in cells.get((wl, dt, n), []) if r["kind"] == "fuselab" and r["name"] == name),
                           None) for n in ns]
                lines.append(f"| {wl} | {dt} | {name} | " + " | ".join(row_cell_text(r, copy_tbps) for r in rs) + " |")
    return lines + [""]


ROW_STYLE = {"torch_eager": ("tab:orange", ":", "s"), "torch_compile": ("tab:orange", "-", "^"),
             "torch_compile_max_autotune": ("tab:red", "--", "v"), "liger": ("tab:brown", "-.", "D")}


def rows_chart(records, copy_gbps, path):
    """h200_rows.png: TB/s over N, one panel per (op, type): fuselab's best (blue, thick), every
    fuselab strategy (faint blue), each peer (orange, red, brown), the copy dashed."""
    try:
        from plotting import rate_panels
    except ImportError:
        print("report: no matplotlib, no rows chart", file=sys.stderr)
        return False
    cells = row_cells(records)
    if not cells:
        return False
    panels = []
    for wl in ROWS:
        for dt in ROW_DTYPES:
            ks = sorted(k for k in cells if k[:2] == (wl, dt))
            if not ks:
                continue
            series = []
            names = sorted({r["name"] for k in ks for r in cells[k] if r["kind"] == "fuselab"})
            for name in names:
                series.append({"label": "fuselab strategies", "color": "tab:blue", "alpha": 0.3, "linewidth": 0.9,
                               "points": [(k[2], tbps(r)) for k in ks for r in cells[k]
                                          if r["kind"] == "fuselab" and r["name"] == name and usable(r)]})
            series.append({"label": "fuselab's best", "color": "tab:blue", "linewidth": 2.2, "marker": "o",
                           "points": [(k[2], tbps(b)) for k in ks for b in [row_best(cells[k], "fuselab")] if b]})
            peers = [p for p in ROW_PEERS] + sorted({r["name"] for k in ks for r in cells[k]
                                                     if r["kind"] == "peer"} - set(ROW_PEERS))
            for p in peers:
                color, ls, mk = ROW_STYLE.get(p, ("tab:gray", "-", "x"))
                pts = [(k[2], tbps(r)) for k in ks for r in cells[k] if r["kind"] == "peer" and r["name"] == p
                       and usable(r)]
                if pts:
                    series.append({"label": p, "color": color, "linestyle": ls, "marker": mk, "points": pts})
            panels.append({"title": f"{wl}, {dt}", "series": series,
                           "ceiling": copy_gbps / 1e3 if copy_gbps else None, "ceiling_label": "device copy"})
    return rate_panels(panels, path, "Row reductions on one H200: TB/s at the minimum bytes over the row length "
                       "(M = 2^26 / N), fuselab and its peers in one session", "TB/s")


def choice_section(targets, choice, overhead):
    """h200.md's part on calling a pipeline: targets, the model's choices, each path's call cost."""
    lines = []
    if targets:
        lines += ["## Calling a pipeline: targets", "", "| target | this run | held |", "|---|---|---|"]
        lines += [f"| {t['target']} | {t['value']} | {'yes' if t['held'] else 'no'} |" for t in targets]
        lines.append("")
    if overhead:
        m = overhead["meta"]
        lines += [f"## Host cost per call, add_relu N = 4096 ({m.get('date')}, {m.get('device')}, torch "
                  f"{m.get('torch')}; one process, median of {overhead['records'][0]['repeats']} loops of "
                  f"{overhead['records'][0]['calls_per_repeat']} calls)", "",
                  "| path | host us per call |", "|---|---|"]
        lines += [f"| {r['name']} | {r['host_us']:.2f} |" for r in overhead["records"]]
        lines.append("")
    lines += choice_table.section(choice)
    return lines


def issue28_targets(by_name):
    """Issue 28's targets on the call_overhead records of one process (host us per call, by
    path name): the torch ops against eager torch.add of the same run, fuselab.kernel with its
    output given, and fuselab::invoke in C++ against Halide's own call in the same loop."""
    out = []
    add = next((v for k, v in by_name.items() if k.startswith("torch_eager_op add (one op)")), None)
    two = next((v for k, v in by_name.items() if k.startswith("torch_eager_op relu(add)")), None)
    for name in ("torch.ops.fuselab.add_relu", "torch.ops.fuselab.add_relu__fused__cuda"):
        if name in by_name and add and two:
            v = by_name[name]
            out.append({"target": f"issue 28: {name} at most 1.35x eager torch.add of the same run, "
                                  f"and below eager's two ops",
                        "value": f"{v:.2f} us against add {add:.2f} (x{v / add:.2f}) and relu(add) "
                                 f"{two:.2f}",
                        "held": v <= 1.35 * add and v < two})
    rows = by_name.get("torch.ops.fuselab.softmax [4, 1024] bfloat16")
    eager = by_name.get("torch_eager_op softmax [4, 1024] bfloat16")
    if rows and eager:
        out.append({"target": "issue 28: torch.ops.fuselab.softmax on [4, 1024] bfloat16 at most "
                              "1.35x eager torch.softmax of the same run",
                    "value": f"{rows:.2f} us against {eager:.2f} (x{rows / eager:.2f})",
                    "held": rows <= 1.35 * eager})
    name = "fuselab.kernel(add_relu, fused)"
    if name in by_name:
        out.append({"target": f"issue 28: {name}(a=, b=, out=) at most 8 us",
                    "value": f"{by_name[name]:.2f} us", "held": by_name[name] <= 8})
    argv, inv = by_name.get("C++ halide argv"), by_name.get("C++ fuselab::invoke")
    if argv and inv:
        out.append({"target": "issue 28: fuselab::invoke from C++ at most 1 us above Halide's own "
                              "call of the same pipeline function, in the same loop",
                    "value": f"{inv:.2f} against {argv:.2f} us (+{inv - argv:.2f})",
                    "held": inv - argv <= 1.0})
    return out


def issue22_targets(choice, overhead):
    """Issue 22's targets on this run, each {"target", "value", "held"}."""
    out = []
    by_name = {r["name"]: r["host_us"] for r in overhead}
    eager = next((v for k, v in by_name.items() if k.startswith("torch_eager_op relu(add)")), None)
    for name, bound in [("torch.ops.fuselab.add_relu", 12), ("torch.ops.fuselab.add_relu__fused__cuda", 12),
                        ("fuselab.kernel(add_relu, fused)", 8), ("fuselab.kernel(add_relu)", 8)]:
        if name in by_name:
            out.append({"target": f"{name} at add_relu N = 4096: at most {bound} us host per call",
                        "value": round(by_name[name], 2), "held": by_name[name] <= bound})
    if eager and "torch.ops.fuselab.add_relu" in by_name:
        v = by_name["torch.ops.fuselab.add_relu"]
        out.append({"target": "torch.ops.fuselab.add_relu at or below torch eager's two ops",
                    "value": f"{v:.2f} against {eager:.2f} us", "held": v <= eager})
    out += issue28_targets(by_name)
    if choice:
        worst = max(choice, key=lambda c: c["regret"])
        out.append({"target": "the model's pick within 1.10x of the measured winner at every (workload, size), "
                              "each size left out of its own fit",
                    "value": f"{sum(c['regret'] <= 1.10 for c in choice)} of {len(choice)} within; worst "
                             f"{worst['regret']:.2f}x ({worst['workload']} {worst['size']})",
                    "held": all(c["regret"] <= 1.10 for c in choice)})
    return out


def main():
    ap = argparse.ArgumentParser()
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--run", help="the folder one GPU session's runs wrote")
    src.add_argument("--plot", metavar="H200_JSON",
                     help="redraw only h200.png from an existing h200.json (its records; nothing else written)")
    ap.add_argument("--out", required=True, help="where h200.json, h200.md, h200.png go")
    ap.add_argument("--choice", help="the cost model's leave-one-out table (fuselab tune --fit "
                    "--choice-out; default: the bench JSON's own, or DIR/choice.json)")
    ap.add_argument("--call-overhead", help="peers/call_overhead.py's JSON (default: "
                    "DIR/call_overhead.json)")
    args = ap.parse_args()
    if args.plot:
        os.makedirs(args.out, exist_ok=True)
        doc = load(args.plot)
        recs = doc["records"]
        others = [r for r in recs if r["workload"] not in ROWS]
        ok = chart(others, os.path.join(args.out, "h200.png")) if others else True
        if any(r["workload"] in ROWS for r in recs):
            ok = rows_chart(recs, doc["meta"].get("copy_bandwidth_GBps"), os.path.join(args.out, "h200_rows.png")) and ok
        sys.exit(0 if ok else 1)
    run = lambda name: os.path.join(args.run, name)  # noqa: E731
    machine = open(run("machine.txt")).read().strip() if os.path.exists(run("machine.txt")) else ""
    # A call's `git status` lists the older runs it moved out of the tree (the carry's 64 MiB):
    # one line for them, not one a path.
    status = re.compile(r"^(?: D|\?\?) results/runs/")
    moved = sum(1 for line in machine.splitlines() if status.match(line))
    if moved:
        kept = [line for line in machine.splitlines() if not status.match(line)]
        machine = "\n".join(kept) + f"\n(git status: {moved} paths under results/runs/ out of the tree for the calls' carry)"

    # fuselab bench: bench_cuda.json plus any bench_*.json of pipelines it did not reach.
    fl = load(run("bench_cuda.json"))
    bench_records, seen = list(fl["records"]), {key_of(r) for r in fl["records"]}
    for path in sorted(glob.glob(run("bench_*.json"))):
        if os.path.basename(path) in ("bench_cuda.json", "bench_cupti.json") or "regs" in path:
            continue
        for r in load(path)["records"]:
            if key_of(r) not in seen:
                seen.add(key_of(r))
                bench_records.append(r)
    peers = load(run("peers.json")) if os.path.exists(run("peers.json")) else {"meta": {}, "records": []}
    # The row reductions' peers from a call of their own (peers.py --workload rows --json
    # DIR/peers_rows*.json), where they are not merged into peers.json; its copy counts too.
    row_peer_runs = [load(p) for p in sorted(glob.glob(run("peers_rows*.json")))]
    torch_runs = [load(p) for p in sorted(glob.glob(run("torch_*.json")))]
    listed = load(run("list.json")) if os.path.exists(run("list.json")) else []
    copy_gbps = peers["meta"].get("copy_bandwidth_GBps")
    for t in row_peer_runs:
        copy_gbps = max(copy_gbps or 0, t["meta"].get("copy_bandwidth_GBps") or 0) or None
    for t in torch_runs:  # the same device copy, measured again by torch_bench.py
        copy_gbps = max(copy_gbps or 0, t["meta"].get("copy_bandwidth_GBps") or 0) or None
    cupti_path = run("bench_cupti.json")
    cupti = {key_of(r): r for r in load(cupti_path)["records"]} if os.path.exists(cupti_path) else {}

    records = []
    for r in bench_records:
        r = {**r, **{k: v for k, v in cupti.get(key_of(r), {}).items()
                     if k in ("kernel_us", "launches_measured", "launches_per_call")}}
        timing, host_us = fuselab_timing(r)
        records.append({"workload": r["workload"], "size": r["size"], "name": r["name"], "kind": r["kind"],
                        "dtype": dtype_of(r),
                        "median_us": r["median_us"], "timing": timing, "host_us": host_us,
                        "kernels": r.get("kernels"),
                        "intermediate_bytes": r.get("intermediate_bytes"), "min_bytes": r["min_bytes"],
                        "flops": r.get("flops"), "ok": r["ok"], "rel_err": r.get("rel_err"),
                        "error": r.get("error"), "kernel_us": r.get("kernel_us"),
                        "launches_measured": r.get("launches_measured")})
    for r in peers["records"]:
        if r["workload"] != "copy":
            records.append(peer_record(r))
    have_peers = {key_of(r) for r in records if r["kind"] == "peer"}
    for t in row_peer_runs:
        for r in t["records"]:
            if r["workload"] != "copy" and key_of(r) not in have_peers:
                have_peers.add(key_of(r))
                records.append(peer_record(r))
    have = {key_of(r) + (r["kind"],) for r in records}
    for t in torch_runs:
        for r in t["records"]:
            if r["workload"] == "copy":
                continue
            if r["kind"] == "peer":
                if key_of(r) + ("peer",) not in have:  # peers.py's first
                    records.append(peer_record(r))
                continue
            records.append({**peer_record(r), "kind": r["kind"], "kernels": r.get("kernels"),
                            "refused": r.get("refused", False)})
    flops_of = {(r["workload"], r["size"]): r.get("flops") for r in records if r.get("flops")}
    for r in records:
        floor = None
        if copy_gbps and r.get("min_bytes"):
            floor = r["min_bytes"] / (copy_gbps * 1e3)
        flops = flops_of.get((r["workload"], r["size"]))
        if flops:
            floor = max(floor or 0, flops / FP32_PEAK_FLOPS * 1e6)
        r["floor_us"] = floor

    # The cost model's choices (issue 22): the bench's own table, else one fitted afterwards.
    choice_path = args.choice or run("choice.json")
    choice = fl.get("choice")
    model = fl.get("model")
    if not choice and os.path.exists(choice_path):
        c = load(choice_path)
        choice, model = c["choice"], c.get("model")
    # Each Python path's host cost per call, one process (peers/call_overhead.py).
    overhead_path = args.call_overhead or run("call_overhead.json")
    overhead = load(overhead_path) if os.path.exists(overhead_path) else None
    targets = issue22_targets(choice or [], overhead["records"] if overhead else [])
    targets23 = row_targets(records, copy_gbps)

    os.makedirs(args.out, exist_ok=True)
    meta = {"fuselab": fl["meta"], "peers": peers["meta"],
            **({"peers_rows": [t["meta"] for t in row_peer_runs]} if row_peer_runs else {}),
            "torch_bench": [t["meta"] for t in torch_runs], "machine": machine,
            "cudnn_benchmark": peers["meta"].get("cudnn_benchmark"),
            "copy_bandwidth_GBps": copy_gbps,
            "commands": ["gpu/gpu_run.sh tests", "gpu/gpu_run.sh fuselab",
                         "python3 peers/torch_bench.py --part graph|torch", "python3 peers/peers.py",
                         "python3 results/report.py --run DIR --out results"]}
    with open(os.path.join(args.out, "h200.json"), "w") as f:
        doc = {"meta": meta, "records": records + (overhead["records"] if overhead else [])}
        if choice:
            doc["choice"], doc["model"] = choice, model
        if overhead:
            meta["call_overhead"] = overhead["meta"]
        if targets or targets23 or choice:
            doc["targets"] = targets + targets23 + choice_table.targets(choice)
        json.dump(doc, f, indent=1)

    groups = {}  # the workloads before the row reductions, which have their own part
    for r in records:
        if r["workload"] not in ROWS:
            groups.setdefault((r["workload"], r["size"]), []).append(r)

    def best(rows, kinds):
        ok = [r for r in rows if r["ok"] and r.get("median_us") and r["kind"] in kinds]
        return min(ok, key=lambda r: r["median_us"]) if ok else None

    lines = ["# fuselab on the H200: strategies and peers, one session", "",
             f"- fuselab bench: {fl['meta'].get('date')} on {fl['meta'].get('device')}",
             f"- peers: {peers['meta'].get('date')}, torch {peers['meta'].get('torch_version')}, "
             f"triton {peers['meta'].get('triton_version')}, cudnn.benchmark "
             f"{peers['meta'].get('cudnn_benchmark')}",
             f"- device copy bandwidth (same session): {copy_gbps:.0f} GB/s" if copy_gbps else "",
             "- machine:", "", "```", machine, "```", "",
             "Medians in microseconds. `us` is the measure `timing` names: `events`, the GPU time between CUDA "
             "events around each call after a 256 MB L2 flush (triton's do_bench for the peers and for fuselab "
             "called from PyTorch; fuselab's DeviceTimer the same way for its direct calls); `host us`, wall "
             "clock per call over back-to-back batches of at least 20 ms each ending with a device sync. "
             "Kinds: `fuselab` (a Halide strategy, called directly from C++), `seed_cuda` (hand-written CUDA), "
             "`fuselab_torch` (a fuselab variant called on torch tensors through the Python package), "
             "`fuselab_graph` (the same, directly or replayed from a CUDA graph), `peer` (PyTorch). floor: the "
             "fewest bytes over the copy bandwidth, or for convs the fp32 datasheet rate. \"-\": not in this "
             "session's files. Raw logs and commands are in the run folder.", ""]
    lines += ["## Targets (issue 14)", "",
              "| workload | size | target | fuselab's best (strategy) | us | holds |", "|---|---|---|---|---|---|"]
    for wl, size, bound, text in TARGETS:
        b = best(groups.get((wl, size), []), FUSELAB_KINDS)
        lines.append(f"| {wl} | {size} | {text} | {b['name'] if b else '-'} | {us(b['median_us'] if b else None)} | "
                     f"{'-' if not b else 'yes' if b['median_us'] <= bound else 'NO'} |")
    bw, bsz, frac = BLUR
    b = best(groups.get((bw, bsz), []), FUSELAB_KINDS)
    if b and b.get("floor_us"):
        got = b["floor_us"] / b["median_us"]
        lines.append(f"| {bw} | {bsz} | >= {100 * frac:.0f}% of the copy bandwidth | {b['name']} | "
                     f"{b['median_us']:.1f} ({100 * got:.0f}%) | {'yes' if got >= frac else 'NO'} |")
    lines += ["", "Against the strongest peer of the same session (every configuration peers.py and torch_bench.py "
              "ran: eager, compile, dynamic, reduce-overhead, max-autotune where they ran):", "",
              "| workload | size | fuselab's best | us | hand-written CUDA | us | strongest peer | us | fuselab <= peer |",
              "|---|---|---|---|---|---|---|---|---|"]
    for (wl, size), rows in groups.items():
        f, h, q = best(rows, FUSELAB_KINDS), best(rows, ("seed_cuda",)), best(rows, ("peer",))
        verdict = "-" if not (f and q) else "yes" if f["median_us"] <= q["median_us"] else "NO"
        lines.append(f"| {wl} | {size} | {f['name'] if f else '-'} | {us(f['median_us'] if f else None)} | "
                     f"{h['name'] if h else '-'} | {us(h['median_us'] if h else None)} | "
                     f"{q['name'] if q else '-'} | {us(q['median_us'] if q else None)} | {verdict} |")
    lines.append("")
    lines += graph_section(records)
    direct = {key_of(r): r for r in records if r["kind"] in ("fuselab", "seed_cuda")}
    tr = [r for r in records if r["kind"] == "fuselab_torch" and r.get("median_us")]
    if tr:
        lines += ["## Called from PyTorch (fuselab_torch) against the direct C++ call", "",
                  "The fastest variant of each workload and size, on torch CUDA tensors through the Python package "
                  "(zero-copy, torch's current stream), timed as the peers are, beside the same variant called "
                  "directly by `fuselab bench`.", "",
                  "| workload | size | variant | from torch us | direct us | ratio | from torch host us | direct host us |",
                  "|---|---|---|---|---|---|---|---|"]
        for r in tr:
            d = direct.get(key_of(r))
            if not d or not d.get("median_us"):
                continue
            size = r["size"] + ("" if dtype_of(r) == "float32" else f" {dtype_of(r)}")
            lines.append(f"| {r['workload']} | {size} | {r['name']} | {r['median_us']:.1f} | {d['median_us']:.1f} | "
                         f"{r['median_us'] / d['median_us']:.3f} | {us(r.get('host_us'))} | {us(d.get('host_us'))} |")
        lines.append("")
    for (wl, size), rows in groups.items():
        rows = sorted(rows, key=lambda r: r.get("median_us") or 1e30)
        lines += [f"## {wl} {size}", "",
                  "| name | kind | us | timing | host us | kernels | interm MB | floor us | % of floor | check |",
                  "|---|---|---|---|---|---|---|---|---|---|"]
        for r in rows:
            med = r.get("median_us")
            pct = f"{100 * r['floor_us'] / med:.0f}%" if med and r.get("floor_us") else "-"
            im = r.get("intermediate_bytes")
            im = f"{im / 1e6:.1f}" if im is not None else "-"
            floor = f"{r['floor_us']:.1f}" if r.get("floor_us") else "-"
            kernels = r["kernels"] if r.get("kernels") is not None else "-"
            err = str(r.get("error"))
            refused = r.get("refused") or "refuses" in err or "one shape" in err
            check = "ok" if r["ok"] else ("refused: " if refused else "ERROR: ") + err[:70].replace("|", "/")
            lines.append(f"| {r['name']} | {r['kind']} | {med:.1f} | {r.get('timing') or '-'} | {us(r.get('host_us'))} | "
                         f"{kernels} | {im} | {floor} | {pct} | {check} |"
                         if med else f"| {r['name']} | {r['kind']} | - | - | - | - | - | - | - | {check} |")
        lines.append("")
    lines += rows_section(records, copy_gbps, targets23)
    if listed:
        lines += resources_section(listed)
    lines += choice_section(targets, choice, overhead)
    with open(os.path.join(args.out, "h200.md"), "w") as f:
        f.write("\n".join(l for l in lines if l is not None) + "\n")

    if any(r["workload"] not in ROWS for r in records):
        chart([r for r in records if r["workload"] not in ROWS], os.path.join(args.out, "h200.png"))
    if any(r["workload"] in ROWS for r in records):
        rows_chart(records, copy_gbps, os.path.join(args.out, "h200_rows.png"))


if __name__ == "__main__":
    main()
