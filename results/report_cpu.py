#!/usr/bin/env python3
"""One CPU run's fuselab strategies and CPU peers, side by side: cpu.md and cpu.png.

    python3 results/report_cpu.py --json RUN.json --out DIR
    python3 results/report_cpu.py --json results/cpu.json --out results --plot-only   # only cpu.png

RUN.json is one run in the schema of results/h200.json:
    {"meta": {...}, "records": [{"workload", "size", "name", "kind", "median_us", "floor_us", ...}]}
kind is "fuselab" (a strategy) or "peer" (peers/cpu_peers.py: numpy, numexpr, onnxruntime, opencv).
Other record fields used where present: min_us, ok, rel_err, error, min_bytes, flops, threads,
note, calls_per_repeat, repeats. meta fields used where present: date, cpu, copy_bandwidth_gbs
(the floor's denominator, bench/cpu_probe.h), fma_peak_gflops (the conv target's peak),
copy_methods, load, commands, notes. A record without floor_us gets min_bytes /
copy_bandwidth_gbs when both are known.

cpu.md: the issue's targets, pass or fail, then per workload and size every strategy and every
peer, fastest first, the best of each kind marked, with ratios to the floor and to the best peer.
cpu.png: one panel per workload and size (a log time axis where the panel spans more than a
decade, else linear from 0; results/plotting.py), fuselab blue, peers orange, the floor dashed.
--plot-only redraws cpu.png alone from the same records, after the same floor filling.

The row reductions (issue 23: softmax, rmsnorm_residual, layernorm; sizes NxM; every record with
its storage type in `dtype`, absent meaning float32) stay out of those per-size tables and of
cpu.png: cpu.md gets a part of their own (GB/s at the minimum bytes over N, fuselab's best and
each peer, each with its fraction of the copy bandwidth its floor uses), cpu_rows.png their GB/s
over N, one panel per op and type, and issue 23's CPU targets (ahead of numpy and ONNX Runtime at
every size; within 1.5x of the copy floor at N >= 4096) go into cpu.md and into RUN.json's
`targets` (each with `held` and the figures of every cell; other targets there are kept).
"""
import argparse
import json
import math
import os
import sys

import choice_table  # results/, on sys.path when run as a script

# (workload, size, bound on best fuselab / floor)
FLOOR_TARGETS = [("add_relu", "16777216", 1.15), ("pointwise_chain", "16777216", 3.0),
                 ("blur3x3", "4096x4096", 1.5)]
CONV_TARGET = ("conv_relu_pool", "1920x1080x3x16", 0.5)  # fraction of the FMA peak
AUTO_MARGIN = 1.5  # an autoscheduler beating every hand form by more than this is flagged
# The row reductions (issue 23).
ROWS = ("softmax", "rmsnorm_residual", "layernorm")
ROW_DTYPES = ("float32", "bfloat16", "float16")
ROW_REQUIRED_DTYPES = ("float32", "bfloat16")  # float16 is optional on the CPU
ROW_N = (256, 4096, 65536)
ROW_PEERS = ("numpy", "onnxruntime")
ROW_FLOOR_BOUND, ROW_FLOOR_FROM_N = 1.5, 4096
ROW_TARGET_PREFIX = "issue 23 (CPU)"


def fmt_us(v):
    """A time with its unit: microseconds, or milliseconds from 10 ms up."""
    if v is None:
        return "-"
    if v >= 10000:
        return f"{v / 1000:.2f} ms"
    return f"{v:.1f} us"


def store_floor_factor(meta, workload):
    """The floor's copy bandwidth / the plain-store copy's, from the probes beside `workload`
    (the faster of the two, as for the floor): how much further a kernel whose stores are plain
    (Halide's: each written line is read first) sits from the floor at best."""
    p = meta.get("copy_probes", {}).get(workload, {})
    bw = max(p.get("before_gbs") or 0, p.get("after_gbs") or 0)
    st = max((p.get(k) or {}).get("vector_store") or 0 for k in ("before_methods", "after_methods"))
    return bw / st if bw and st else None


def ok_rows(rows, kind=None):
    return [r for r in rows if r.get("median_us") and r.get("ok", True) and not r.get("error")
            and (kind is None or r.get("kind") == kind)]


def best(rows, kind):
    rs = ok_rows(rows, kind)
    return min(rs, key=lambda r: r["median_us"]) if rs else None


def is_auto(r):
    return r.get("kind") == "fuselab" and r["name"] == "auto"


def fill_floors(records, meta):
    bw = meta.get("copy_bandwidth_gbs")
    for r in records:
        if r.get("floor_us") is None and bw and r.get("min_bytes"):
            r["floor_us"] = r["min_bytes"] / (bw * 1e3)


def flops_of(rows):
    for r in rows:
        if r.get("flops"):
            return r["flops"]
    return None


def targets_section(groups, meta):
    out = ["## Targets", "",
           "| target | workload | size | measured | bound | holds |", "|---|---|---|---|---|---|"]
    results = []

    def add(text, wl, size, measured, bound, holds):
        results.append(holds)
        out.append(f"| {text} | {wl} | {size} | {measured} | {bound} | {'yes' if holds else '**NO**' if holds is False else '-'} |")

    for (wl, size), rows in groups.items():
        bf, bp = best(rows, "fuselab"), best(rows, "peer")
        if bf and bp:
            add("best fuselab <= best peer", wl, size,
                f"{bf['name']} {fmt_us(bf['median_us'])}", f"{bp['name']} {fmt_us(bp['median_us'])}",
                bf["median_us"] <= bp["median_us"])
        elif bf:
            add("best fuselab <= best peer", wl, size, f"{bf['name']} {fmt_us(bf['median_us'])}",
                "no peer in this run", None)
    for wl, size, bound in FLOOR_TARGETS:
        rows = groups.get((wl, size), [])
        bf = best(rows, "fuselab")
        if not bf or not bf.get("floor_us"):
            add(f"best fuselab within {bound}x of the copy floor", wl, size, "-", f"{bound}x", None)
            continue
        ratio = bf["median_us"] / bf["floor_us"]
        sf = store_floor_factor(meta, wl)
        extra = f" ({ratio / sf:.2f}x the plain-store copy's)" if sf else ""
        add(f"best fuselab within {bound}x of the copy floor", wl, size,
            f"{bf['name']} {fmt_us(bf['median_us'])} = {ratio:.2f}x floor {fmt_us(bf['floor_us'])}{extra}",
            f"{bound}x", ratio <= bound)
    wl, size, frac = CONV_TARGET
    rows = groups.get((wl, size), [])
    bf, peak, flops = best(rows, "fuselab"), meta.get("fma_peak_gflops"), flops_of(rows)
    if bf and peak and flops:
        g = flops / bf["median_us"] / 1e3
        add(f"best fuselab >= {int(frac * 100)}% of the fp32 FMA peak", wl, size,
            f"{bf['name']} {g:.0f} GFLOP/s = {100 * g / peak:.0f}% of {peak:.0f}", f"{frac * peak:.0f} GFLOP/s",
            g >= frac * peak)
    else:
        add(f"best fuselab >= {int(frac * 100)}% of the fp32 FMA peak", wl, size, "-", "-", None)
    for (wl, size), rows in groups.items():
        auto = [r for r in ok_rows(rows, "fuselab") if is_auto(r)]
        hand = [r for r in ok_rows(rows, "fuselab") if not is_auto(r)]
        if not auto or not hand:
            continue
        a, h = auto[0], min(hand, key=lambda r: r["median_us"])
        ratio = h["median_us"] / a["median_us"]
        add(f"no autoscheduler beats every hand form by > {AUTO_MARGIN}x", wl, size,
            f"best hand {h['name']} {fmt_us(h['median_us'])}, auto {fmt_us(a['median_us'])} ({ratio:.2f}x)",
            f"{AUTO_MARGIN}x", ratio <= AUTO_MARGIN)
    held = sum(1 for v in results if v is True)
    failed = sum(1 for v in results if v is False)
    out += ["", f"{held} hold, {failed} do not, {len(results) - held - failed} not measured in this run.", ""]
    return out


def group_section(key, rows, meta):
    wl, size = key
    bf, bp = best(rows, "fuselab"), best(rows, "peer")
    flops = flops_of(rows)
    floor = next((r["floor_us"] for r in rows if r.get("floor_us")), None)
    out = [f"## {wl} {size}", ""]
    facts = []
    if floor:
        mb = next((r["min_bytes"] for r in rows if r.get("min_bytes")), None)
        facts.append(f"floor {fmt_us(floor)}" + (f" ({mb / 1e6:.1f} MB at the copy bandwidth)" if mb else ""))
    if flops:
        facts.append(f"{flops / 1e9:.2f} GFLOP a call")
    if facts:
        out += ["; ".join(facts) + ".", ""]
    rate = "GFLOP/s" if flops else "GB/s"
    sf = store_floor_factor(meta, wl)
    out += [f"| | name | kind | median | min | x floor | x store floor | x best peer | {rate} | threads | check | note |",
            "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in sorted(rows, key=lambda r: r.get("median_us") or math.inf):
        med = r.get("median_us")
        mark = "**best**" if r is bf else "best peer" if r is bp else ""
        if not med:
            out.append(f"| | {r['name']} | {r.get('kind')} | - | - | - | - | - | - | - | ERROR | "
                       f"{str(r.get('error', ''))[:100]} |")
            continue
        xf = f"{med / r['floor_us']:.2f}" if r.get("floor_us") else "-"
        xs = f"{med / (r['floor_us'] * sf):.2f}" if r.get("floor_us") and sf and not flops else "-"
        xp = f"{med / bp['median_us']:.2f}" if bp else "-"
        if flops:
            rt = f"{flops / med / 1e3:.0f}"
        elif r.get("min_bytes"):
            rt = f"{r['min_bytes'] / med / 1e3:.1f}"
        else:
            rt = "-"
        if r.get("error"):
            check = "ERROR"
        elif r.get("ok") is False:
            check = "WRONG" + (f" {r['rel_err']:.1e}" if r.get("rel_err") is not None else "")
        else:
            check = "ok" + (f" {r['rel_err']:.1e}" if r.get("rel_err") is not None else "")
        out.append(f"| {mark} | {r['name']} | {r.get('kind')} | {fmt_us(med)} | {fmt_us(r.get('min_us'))} | {xf} | {xs} | "
                   f"{xp} | {rt} | {r.get('threads', '-')} | {check} | {str(r.get('note', '') or '')[:120]} |")
    return out + [""]


def grid_section(groups):
    """The sizes timed without peers (the choice's denser grid, issue 29): one line a size."""
    if not groups:
        return []
    out = ["## The choice's grid: sizes the suite does not name (fuselab alone)", "",
           "Every CPU strategy at each size, for the measured table the choice reads "
           "(results/measured.json); x floor as above.", "",
           "| workload | size | strategies | best | median | x floor | second | x best |",
           "|---|---|---|---|---|---|---|---|"]
    for (wl, size), rows in sorted(groups.items(), key=lambda kv: (kv[0][0], row_n({"size": kv[0][1]}))):
        ok = sorted((r for r in ok_rows(rows, "fuselab") if r.get("median_us")), key=lambda r: r["median_us"])
        if not ok:
            out.append(f"| {wl} | {size} | 0 | - | - | - | - | - |")
            continue
        b = ok[0]
        xf = f"{b['median_us'] / b['floor_us']:.2f}" if b.get("floor_us") else "-"
        s = ok[1] if len(ok) > 1 else None
        second = f"{s['name']} | {s['median_us'] / b['median_us']:.2f}" if s else "- | -"
        out.append(f"| {wl} | {size} | {len(ok)} | {b['name']} | {fmt_us(b['median_us'])} | {xf} | {second} |")
    return out + [""]


# ---------------------------------------------------------------- the row reductions (issue 23)
def dtype_of(r):
    return r.get("dtype") or "float32"


def is_refused(r):
    """A documented limit's refusal: the peer line's `refused`, fuselab bench's error_kind "refusal"."""
    return bool(r.get("refused") or r.get("error_kind") == "refusal")


def row_n(r):
    return int(str(r["size"]).lower().split("x")[0])


def gbs(r):
    return r["min_bytes"] / r["median_us"] / 1e3 if r.get("median_us") and r.get("min_bytes") else None


def copy_fraction(r):
    """median's share of the copy bandwidth its floor uses: floor_us / median_us."""
    return r["floor_us"] / r["median_us"] if r.get("floor_us") and r.get("median_us") else None


def row_cells(records):
    """The suite's row sizes only (N in ROW_N, 2^22 elements): the denser grid of row lengths in the
    same file (gpu_run.sh rows_grid's CPU counterpart, fuselab alone) is the choice's, not these
    tables', which set fuselab beside its peers of the same run."""
    cells = {}
    for r in records:
        parts = str(r["size"]).lower().split("x")
        m = int(parts[1]) if len(parts) > 1 else 1
        if r["workload"] in ROWS and row_n(r) in ROW_N and row_n(r) * m >= 1 << 21:
            cells.setdefault((r["workload"], dtype_of(r), row_n(r)), []).append(r)
    return cells


def row_dtypes(cells):
    """float32 and bfloat16 (required), float16 where this run has it."""
    return [dt for dt in ROW_DTYPES if dt in ROW_REQUIRED_DTYPES or any(k[1] == dt for k in cells)]


def row_targets(records):
    """Issue 23's CPU targets, one entry each: {"target", "value", "held", "cells"}; held only
    where every cell was measured and held."""
    cells = row_cells(records)
    if not cells:
        return []
    keys = [(wl, dt, n) for wl in ROWS for dt in row_dtypes(cells) for n in ROW_N]

    def figures(k):
        rows = cells.get(k, [])
        c = {"workload": k[0], "dtype": k[1], "n": k[2]}
        bf = best(rows, "fuselab")
        if bf:
            c.update(fuselab=bf["name"], fuselab_us=round(bf["median_us"], 3), size=bf["size"],
                     fuselab_x_floor=round(bf["median_us"] / bf["floor_us"], 3) if bf.get("floor_us") else None)
        for p in ROW_PEERS:
            pr = [r for r in rows if r.get("kind") == "peer" and r["name"] == p]
            okr = ok_rows(pr)
            if okr:
                c[f"{p}_us"] = round(min(r["median_us"] for r in okr), 3)
            elif pr:
                c[f"{p}_us"] = None
                c[f"{p}_error"] = str(pr[0].get("error") or "wrong")[:200]
        return c

    def entry(text, ks, judge, what):
        out, failed, missing = [], [], 0
        for k in ks:
            c = figures(k)
            c["held"] = judge(c)
            out.append(c)
            missing += c["held"] is None
            if c["held"] is False:
                failed.append(c)
        value = f"{len(ks) - missing - len(failed)} of {len(ks)} cells held"
        if failed:
            value += "; not held: " + ", ".join(f"{c['workload']} {c['dtype']} N={c['n']} ({what(c)})" for c in failed)
        if missing:
            value += f"; {missing} not measured"
        return {"target": text, "value": value, "held": not missing and not failed, "cells": out}

    def ahead(c):
        peers = [c[f"{p}_us"] for p in ROW_PEERS if c.get(f"{p}_us")]
        if c.get("fuselab_us") is None or not peers:
            return None
        return c["fuselab_us"] < min(peers)

    def near_floor(c):
        if c.get("fuselab_x_floor") is None:
            return None
        return c["fuselab_x_floor"] <= ROW_FLOOR_BOUND

    peer_txt = lambda c: f"{c.get('fuselab')} {fmt_us(c.get('fuselab_us'))} against " + ", ".join(  # noqa: E731
        f"{p} {fmt_us(c.get(p + '_us'))}" for p in ROW_PEERS if c.get(p + "_us"))
    floor_txt = lambda c: f"{c.get('fuselab')} {c.get('fuselab_x_floor'):.2f}x the floor"  # noqa: E731
    return [entry(f"{ROW_TARGET_PREFIX}: fuselab's best ahead of numpy and ONNX Runtime at every size of the CPU "
                  "suite, every op and type (a peer that refuses a type is left out of that cell)", keys, ahead,
                  peer_txt),
            entry(f"{ROW_TARGET_PREFIX}: fuselab's best within {ROW_FLOOR_BOUND}x of the CPU copy floor at "
                  f"N >= {ROW_FLOOR_FROM_N}", [k for k in keys if k[2] >= ROW_FLOOR_FROM_N], near_floor, floor_txt)]


def row_cell_text(r, strategy=False):
    if r is None:
        return "-"
    if is_refused(r):
        return "refused"
    if not r.get("median_us"):
        return "error"
    g, f = gbs(r), copy_fraction(r)
    txt = (f"{g:.1f}" if g is not None else fmt_us(r["median_us"])) + (f" ({f:.2f})" if f else "")
    if r.get("ok") is False or r.get("error"):
        txt = "wrong: " + txt
    return txt + (f" {r['name']}" if strategy else "")


def rows_section(records, targets, meta=None):
    cells = row_cells(records)
    if not cells:
        return []
    ns = sorted({k[2] for k in cells})
    run = (meta or {}).get("rows") or {}  # the rows' own run, where merged beside a suite
    lines = ["## Row reductions (issue 23): GB/s over the row length", "",
             *([f"Run: {run.get('date')} on {run.get('cpu')} ({run.get('probe_isa')}), fuselab and its "
                f"peers in one process.", ""] if run else []),
             "GB/s at the minimum bytes (every input read once, every output written once, at the storage type's "
             "size), the CPU host measure; in parentheses the fraction of the copy bandwidth of the record's floor "
             "(floor / median). Sizes NxM, M = 2^22 / N. fuselab's best: the fastest correct strategy, named. "
             "`refused`: the peer has no kernel for the type; `wrong`: outside the tolerance. Chart: cpu_rows.png.", ""]
    if targets:
        lines += ["| target | this run | held |", "|---|---|---|"]
        lines += [f"| {t['target']} | {t['value']} | {'yes' if t['held'] else '**NO**'} |" for t in targets]
        lines.append("")
    peers = list(ROW_PEERS) + sorted({r["name"] for rs in cells.values() for r in rs if r.get("kind") == "peer"}
                                     - set(ROW_PEERS))
    for wl in ROWS:
        dts = [dt for dt in ROW_DTYPES if any(k[:2] == (wl, dt) for k in cells)]
        if not dts:
            continue
        lines += [f"### {wl}", "", "| type | | " + " | ".join(f"N={n}" for n in ns) + " |",
                  "|---|---|" + "---|" * len(ns)]
        for dt in dts:
            cs = [cells.get((wl, dt, n), []) for n in ns]
            lines.append(f"| {dt} | **fuselab** | " + " | ".join(row_cell_text(best(c, "fuselab"), True) for c in cs) + " |")
            for p in peers:
                rs = [next((r for r in c if r.get("kind") == "peer" and r["name"] == p), None) for c in cs]
                if any(rs):
                    lines.append(f"| {dt} | {p} | " + " | ".join(row_cell_text(r) for r in rs) + " |")
            for name in sorted({r["name"] for c in cs for r in c if r.get("kind") == "fuselab"}):
                rs = [next((r for r in c if r.get("kind") == "fuselab" and r["name"] == name), None) for c in cs]
                lines.append(f"| {dt} | fuselab {name} | " + " | ".join(row_cell_text(r) for r in rs) + " |")
        lines.append("")
    return lines


ROW_STYLE = {"numpy": ("tab:orange", "-", "s"), "onnxruntime": ("tab:brown", "--", "D")}


def rows_chart(records, meta, path):
    """cpu_rows.png: GB/s over N, one panel per (op, type): fuselab's best (blue, thick), every
    strategy (faint blue), numpy and ONNX Runtime (orange, brown), the copy bandwidth dashed."""
    try:
        from plotting import rate_panels
    except ImportError:
        print("report_cpu: no matplotlib, no rows chart", file=sys.stderr)
        return False
    cells = row_cells(records)
    panels = []
    for wl in ROWS:
        for dt in ROW_DTYPES:
            ks = sorted(k for k in cells if k[:2] == (wl, dt))
            if not ks:
                continue
            rs = [r for k in ks for r in cells[k]]
            series = []
            for name in sorted({r["name"] for r in rs if r.get("kind") == "fuselab"}):
                series.append({"label": "fuselab strategies", "color": "tab:blue", "alpha": 0.3, "linewidth": 0.9,
                               "points": [(row_n(r), gbs(r)) for r in ok_rows(rs, "fuselab") if r["name"] == name]})
            series.append({"label": "fuselab's best", "color": "tab:blue", "linewidth": 2.2, "marker": "o",
                           "points": [(k[2], gbs(b)) for k in ks for b in [best(cells[k], "fuselab")] if b]})
            for p in list(ROW_PEERS) + sorted({r["name"] for r in rs if r.get("kind") == "peer"} - set(ROW_PEERS)):
                color, ls, mk = ROW_STYLE.get(p, ("tab:gray", "-", "x"))
                pts = [(row_n(r), gbs(r)) for r in ok_rows(rs, "peer") if r["name"] == p]
                if pts:
                    series.append({"label": p, "color": color, "linestyle": ls, "marker": mk, "points": pts})
            bws = sorted(r["min_bytes"] / r["floor_us"] / 1e3 for r in rs if r.get("floor_us") and r.get("min_bytes"))
            ceiling = bws[len(bws) // 2] if bws else meta.get("copy_bandwidth_gbs")
            panels.append({"title": f"{wl}, {dt}", "series": series, "ceiling": ceiling,
                           "ceiling_label": "copy bandwidth (the floor's)"})
    title = "Row reductions on the CPU: GB/s at the minimum bytes over the row length (M = 2^22 / N), one run"
    cpu = (meta.get("rows") or {}).get("cpu") or meta.get("cpu")  # the rows' own run, where merged
    if cpu:
        title += f", {cpu}"
    cols = len({p["title"].split(", ")[1] for p in panels}) or 1  # a row of panels per op
    return rate_panels(panels, path, title, "GB/s", cols=cols, dpi=90)


def chart(groups, meta, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from plotting import time_axis
    except ImportError:
        print("report_cpu: no matplotlib, no chart", file=sys.stderr)
        return False
    keys = list(groups)
    cols = 3
    nrows = (len(keys) + cols - 1) // cols
    fig, axes = plt.subplots(nrows, cols, figsize=(6 * cols, 3.0 * nrows), squeeze=False)
    for ax, key in zip(axes.flat, keys):
        rs = sorted(ok_rows(groups[key]), key=lambda r: r["median_us"])
        bf, bp = best(rs, "fuselab"), best(rs, "peer")
        colors = ["tab:orange" if r.get("kind") == "peer" else "tab:blue" for r in rs]
        labels = [r["name"] + (" *" if r is bf or r is bp else "") for r in rs]
        ax.barh(labels, [r["median_us"] for r in rs], color=colors)
        mins = [(i, r["min_us"]) for i, r in enumerate(rs) if r.get("min_us")]
        if mins:
            ax.scatter([m for _, m in mins], [i for i, _ in mins], marker="|", s=100, color="black", zorder=3)
        floor = next((r["floor_us"] for r in rs if r.get("floor_us")), None)
        if floor:
            ax.axvline(floor, color="black", linestyle="--", linewidth=1)
        log = time_axis(ax, [r["median_us"] for r in rs] + [m for _, m in mins] + [floor])
        ax.set_title(f"{key[0]} {key[1]}", fontsize=9)
        ax.set_xlabel(f"us per call{', log' if log else ''} (bars: median; |: min; dashed: copy floor)", fontsize=7)
        ax.tick_params(labelsize=7)
        ax.invert_yaxis()
    for ax in list(axes.flat)[len(keys):]:
        ax.axis("off")
    title = "fuselab CPU strategies (blue) and CPU peers (orange), one run"
    if meta.get("cpu"):
        title += f", {meta['cpu']}"
    if meta.get("date"):
        title += f", {meta['date']}"
    fig.suptitle(title + "; * best of its kind", fontsize=10)
    fig.tight_layout(rect=(0, 0, 1, 0.975))  # room for the suptitle above the top row's titles
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return True


def merge_overhead(run, paths):
    """Each host-cost run's call_overhead records into RUN.json (a later record of the same name
    replaces an earlier one) and its meta into meta["call_overhead"]; True where RUN.json changed."""
    for path in paths:
        with open(path) as f:
            doc = json.load(f)
        names = {r["name"] for r in doc["records"]}
        run["records"] = [r for r in run["records"]
                          if not (r.get("kind") == "call_overhead" and r["name"] in names)] + doc["records"]
        metas = [m for m in run["meta"].get("call_overhead", []) if m.get("source") != path]
        run["meta"]["call_overhead"] = metas + [{"source": path, **doc.get("meta", {})}]
    return bool(paths)


def overhead_section(records, metas):
    """The host cost per call of each way to call add_relu (and softmax [4, 1024] bfloat16), CPU
    tensors: the kernel's own work is in every figure, as the CPU runs it on the calling thread."""
    if not records:
        return []
    lines = ["", "## Host cost per call, CPU tensors (issue 28)", "",
             "Each figure is the median of the repeats' per-call means (back-to-back calls, one process "
             "per source); on the CPU the kernel runs on the caller's thread, so each includes the "
             "kernel's own work. Issue 28's targets are set on the H200's host (h200.md).", ""]
    for m in metas:
        lines.append(f"- `{m['source']}`: {m.get('date', '')}, torch {m.get('torch', '-')}, "
                     f"torch ops backend {m.get('torch_ops_backend', '-')}")
    lines += ["", "| path | N | host us per call |", "|---|---|---|"]
    lines += [f"| {r['name']} | {r['size']} | {r['host_us']:.2f} |" for r in records]
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--json", required=True, help="one CPU run (h200.json's schema)")
    ap.add_argument("--out", required=True, help="folder for cpu.md and cpu.png")
    ap.add_argument("--choice", help="the cost model's leave-one-out table for this run (fuselab tune "
                    "--fit RUN.json --choice-out FILE): written into RUN.json as `choice` and `model`, "
                    "and into cpu.md")
    ap.add_argument("--plot-only", action="store_true",
                    help="redraw only cpu.png from the same records (cpu.md is not written)")
    ap.add_argument("--call-overhead", action="append", default=[], metavar="JSON",
                    help="a host-cost run on this machine with CPU tensors (peers/call_overhead.py "
                    "--device cpu, or fuselab overhead --target cpu): its call_overhead records replace "
                    "RUN.json's of the same names, and cpu.md lists them (issue 28)")
    args = ap.parse_args()
    with open(args.json) as f:
        run = json.load(f)
    rewrite = merge_overhead(run, args.call_overhead)
    meta = run.get("meta", {})
    overhead = [r for r in run["records"] if r.get("kind") == "call_overhead"]
    records = [r for r in run["records"] if r.get("kind") != "call_overhead"]
    fill_floors(records, meta)
    groups = {}  # the workloads before the row reductions, which have their own part
    for r in records:
        if r["workload"] not in ROWS:
            groups.setdefault((r["workload"], r["size"]), []).append(r)
    has_rows = any(r["workload"] in ROWS for r in records)
    if args.plot_only:
        os.makedirs(args.out, exist_ok=True)
        ok = chart(groups, meta, os.path.join(args.out, "cpu.png")) if groups else True
        if has_rows:
            ok = rows_chart(records, meta, os.path.join(args.out, "cpu_rows.png")) and ok
        sys.exit(0 if ok else 1)
    targets23 = row_targets(records)

    lines = ["# fuselab on the CPU: strategies and CPU peers, one run", ""]
    for k, label in [("date", "date"), ("cpu", "CPU"), ("threads", "threads"), ("load", "load")]:
        if meta.get(k) is not None:
            lines.append(f"- {label}: {meta[k]}")
    if meta.get("copy_bandwidth_gbs"):
        lines.append(f"- copy bandwidth (the floor's denominator, bench/cpu_probe.h: bytes read + written, "
                     f"best method's median): {meta['copy_bandwidth_gbs']:.1f} GB/s")
    for m in meta.get("copy_methods", []):
        lines.append(f"  - {m['name']}: median {m['median_gbs']:.1f} GB/s, best {m['best_gbs']:.1f} GB/s")
    if meta.get("fma_peak_gflops"):
        lines.append(f"- fp32 FMA peak (bench/cpu_probe.h, independent FMA chains on every thread, median): "
                     f"{meta['fma_peak_gflops']:.0f} GFLOP/s")
    for c in meta.get("commands", []):
        lines.append(f"- `{c}`")
    for n in meta.get("notes", []):
        lines.append(f"- {n}")
    lines += ["", "Times are per call by fuselab's CPU host measure (back-to-back calls in batches of "
              "at least 20 ms, median over at least 5 batches; min: the fastest batch), peers by the same method "
              "(peers/cpu_peers.py). floor: the fewest bytes a call must move (each input read once, each output "
              "written once) at the copy bandwidth measured in the same run. x floor = median / floor; x best "
              "peer = median / the fastest correct peer's median. x store floor: the same against the floor at the "
              "plain-store copy's bandwidth (vector_store: every line written is first read into the cache, as "
              "Halide's stores do, so a kernel with plain stores moves a third more bytes than it counts for 1 "
              "input and 1 output, a quarter more for 2 and 1). GB/s counts the fewest bytes.", ""]
    lines += targets_section(groups, meta)
    lines += rows_section(records, targets23, meta)
    # A size with peers gets its own table and panel; the choice's grid (fuselab alone) a line.
    grid = {k: rows for k, rows in groups.items() if not any(r.get("kind") == "peer" for r in rows)}
    groups = {k: rows for k, rows in groups.items() if k not in grid}
    for key, rows in groups.items():
        lines += group_section(key, rows, meta)
    lines += grid_section(grid)
    lines += overhead_section(overhead, meta.get("call_overhead", []))
    if args.choice:
        with open(args.choice) as f:
            c = json.load(f)
        run["choice"], run["model"] = c["choice"], c.get("model")
        rewrite = True
    if targets23:  # issue 23's targets replace their earlier evaluation; other targets stay
        kept = [t for t in run.get("targets", []) if not str(t.get("target", "")).startswith(ROW_TARGET_PREFIX)]
        run["targets"] = kept + targets23
        rewrite = True
    if run.get("choice"):  # issue 29's targets on the table, likewise
        kept = [t for t in run.get("targets", []) if not str(t.get("target", "")).startswith(choice_table.TARGET_PREFIX)]
        run["targets"] = kept + choice_table.targets(run["choice"])
        rewrite = True
    if rewrite:
        with open(args.json, "w") as f:
            json.dump(run, f, indent=2, sort_keys=True)
    lines += choice_table.section(run.get("choice"))
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "cpu.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    if groups:
        chart(groups, meta, os.path.join(args.out, "cpu.png"))
    if has_rows:
        rows_chart(records, meta, os.path.join(args.out, "cpu_rows.png"))


if __name__ == "__main__":
    main()
