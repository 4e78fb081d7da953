#!/usr/bin/env python3
"""Merge one GPU run's fuselab bench and peers into the results: h200.json, h200.md, h200.png.

    python3 bench/report.py --run DIR --out bench/results

DIR holds what bench/gpu_run.sh wrote in one session: machine.txt, bench_cuda.json (fuselab's
strategies and the seed's CUDA kernels), peers.json (PyTorch eager and torch.compile, same
machine, same sizes), and optionally bench_cuda_regsN.json (a register-cap sweep) and
ncu/ (bench/ncu_run.sh: DRAM bytes per call from Nsight Compute, into dram_bytes), and
bench_cupti.json (the --cupti run, when kept apart from the timed one). kernel_us and
launches_measured come from `fuselab bench --cupti` (CUPTI: kernel-only GPU time per call, median,
and kernels launched per call), where the run measured them.
floor_us is the larger of the bytes floor (fewest bytes / the device copy bandwidth measured by
peers.py in the same run) and, for conv_relu_pool, the arithmetic floor at the fp32 datasheet
rate (67 TFLOP/s, a lead, not a measurement).

Two measures, on both sides. median_us, the like-for-like one, is what each record's `timing`
names: "events" (CUDA events around each call after a 256 MB L2 flush: triton's do_bench for the
peers, DeviceTimer for fuselab's CUDA variants) or "host". host_us is wall clock per call over
back-to-back batches of at least 20 ms ending with a device sync, fuselab's and peers.py's alike.
Files from before both existed are read as what they were: a fuselab record without `timing`
timed the host only (its median_us is host wall, so it is also its host_us), a peer record
without it is do_bench's ("events", no host_us). Whatever a run lacks shows as "-".
"""
import argparse
import glob
import json
import os
import re
import sys

FP32_PEAK_FLOPS = 67e12  # H200 SXM datasheet fp32 (a lead, not a measurement)

# Issue 4's targets: (workload, size, what must hold, text).
TARGETS = [
    ("add_relu", "268435456", "best <= torch_compile", "best fuselab strategy <= torch.compile"),
    ("add_relu", "4096", "best <= torch_eager", "one call <= torch eager"),
    ("pointwise_chain", "268435456", "best <= torch_compile", "<= torch.compile"),
    ("branches", "268435456", "best <= torch_compile", "<= torch.compile"),
    ("blur3x3", "8192x8192", "best <= 150", "<= 150 us"),
    ("conv_relu_pool", "3840x2160x3x16", "best <= 200", "<= 200 us"),
    ("conv_relu_pool", "1920x1080x16x16", "best <= 300", "<= 300 us"),
    ("conv_relu_pool", "256x256x64x64", "best <= torch_eager", "<= cuDNN through torch eager"),
]


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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--run", required=True, help="the folder one GPU run wrote")
    ap.add_argument("--out", required=True, help="where h200.json, h200.md, h200.png go")
    args = ap.parse_args()

    fl = load(os.path.join(args.run, "bench_cuda.json"))
    peers = load(os.path.join(args.run, "peers.json"))
    machine = open(os.path.join(args.run, "machine.txt")).read().strip()
    # bench_cuda_regsN.json: the register-cap sweep (HL_CUDA_JIT_MAX_REGISTERS=N).
    regs, regs_timing = {}, set()
    for path in glob.glob(os.path.join(args.run, "bench_cuda_regs*.json")):
        cap = int(re.search(r"regs(\d+)\.json$", path).group(1))
        for r in load(path)["records"]:
            regs.setdefault((r["workload"], r["size"], r["name"]), {})[cap] = r["median_us"]
            if r.get("median_us") is not None:
                regs_timing.add(fuselab_timing(r)[0])
    copy_gbps = peers["meta"].get("copy_bandwidth_GBps")
    ncu = {}
    if os.path.isdir(os.path.join(args.run, "ncu")):
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import ncu_table
        ncu = {k: v for k, v in ncu_table.load(os.path.join(args.run, "ncu")).items()
               if v["rc"] == "0" and "read" in v and not v["record"].get("error")}

    # bench_cupti.json (gpu_run.sh): the --cupti run, kept apart so that CUPTI is not loaded while
    # bench_cuda.json is timed; its launches and kernel times replace any in bench_cuda.json.
    cupti_path = os.path.join(args.run, "bench_cupti.json")
    cupti = {(r["workload"], r["size"], r["name"]): r for r in load(cupti_path)["records"]} \
        if os.path.exists(cupti_path) else {}

    records = []
    for r in fl["records"]:
        r = {**r, **{k: v for k, v in cupti.get((r["workload"], r["size"], r["name"]), {}).items()
                     if k in ("kernel_us", "launches_measured", "launches_per_call")}}
        n = ncu.get((r["workload"], r["size"], r["name"]))
        dram = n["read"] + n["write"] if n else None
        timing, host_us = fuselab_timing(r)
        records.append({"workload": r["workload"], "size": r["size"], "name": r["name"], "kind": r["kind"],
                        "median_us": r["median_us"], "timing": timing, "host_us": host_us,
                        "kernels": r.get("kernels"),
                        "intermediate_bytes": r.get("intermediate_bytes"), "min_bytes": r["min_bytes"],
                        "flops": r.get("flops"), "dram_bytes": dram, "ok": r["ok"], "rel_err": r.get("rel_err"),
                        "error": r.get("error"), "kernel_us": r.get("kernel_us"),
                        "launches_measured": r.get("launches_measured"),
                        "launches_per_call": r.get("launches_per_call")})
    for r in peers["records"]:
        if r["workload"] == "copy":
            continue
        records.append({"workload": r["workload"], "size": r["size"], "name": r["name"], "kind": "peer",
                        "median_us": r.get("median_us"),
                        # do_bench's, in files from before peers.py said so
                        "timing": r.get("timing", "events") if r.get("median_us") is not None else None,
                        "host_us": r.get("host_us"), "kernels": None, "intermediate_bytes": None,
                        "min_bytes": r.get("min_bytes"), "flops": None, "dram_bytes": None, "ok": r.get("ok"),
                        "rel_err": r.get("max_rel_err"), "error": r.get("error"), "kernel_us": None,
                        "launches_measured": None})
    flops_of = {(r["workload"], r["size"]): r.get("flops") for r in records if r.get("flops")}
    for r in records:
        floor = None
        if copy_gbps and r.get("min_bytes"):
            floor = r["min_bytes"] / (copy_gbps * 1e3)
        flops = flops_of.get((r["workload"], r["size"]))
        if flops:
            floor = max(floor or 0, flops / FP32_PEAK_FLOPS * 1e6)
        r["floor_us"] = floor

    os.makedirs(args.out, exist_ok=True)
    meta = {"fuselab": fl["meta"], "peers": peers["meta"], "machine": machine,
            "commands": ["bench/gpu_run.sh fuselab", "bench/gpu_run.sh peers",
                         "python3 bench/report.py --run DIR --out bench/results"]}
    with open(os.path.join(args.out, "h200.json"), "w") as f:
        json.dump({"meta": meta, "records": records}, f, indent=1)

    groups = {}
    for r in records:
        groups.setdefault((r["workload"], r["size"]), []).append(r)

    def best(rows, kind_is_fuselab):
        ok = [r for r in rows if r["ok"] and r.get("median_us") and (r["kind"] == "fuselab") == kind_is_fuselab]
        return min(ok, key=lambda r: r["median_us"]) if ok else None

    def best_host(rows):  # the fuselab strategy fastest by host wall clock
        ok = [r for r in rows if r["ok"] and r.get("host_us") and r["kind"] == "fuselab"]
        return min(ok, key=lambda r: r["host_us"]) if ok else None

    lines = ["# fuselab on the H200: strategies and peers, one run", "",
             f"- fuselab bench: {fl['meta'].get('date')} on {fl['meta'].get('device')}",
             f"- peers: {peers['meta'].get('date')}, torch {peers['meta'].get('torch_version')}, "
             f"triton {peers['meta'].get('triton_version')}, driver {peers['meta'].get('driver_version')}",
             f"- device copy bandwidth (peers.py, same session): {copy_gbps:.0f} GB/s" if copy_gbps else "",
             "- machine:", "", "```", machine, "```", "",
             "Times are medians in microseconds, two measures of each. `us` is the like-for-like one, the "
             "measure its `timing` names: `events` is the GPU time between CUDA events around each call after "
             "a 256 MB L2 flush (triton's do_bench for the peers; fuselab's CUDA variants the same way), which "
             "hides the host's share of a call behind the flush; `host` is the host measure below. `host us`: "
             "wall clock per call over back-to-back batches of at least 20 ms, each ending with a device sync "
             "(fuselab's and peers.py's alike), which counts the host's share wherever the GPU does not hide "
             "it. \"-\": not in this run's files. floor: fewest bytes over the copy bandwidth, or for conv the "
             "fp32 datasheet rate (% of floor uses us). kernels: the build-time ledger; launches and kernel us: "
             "measured with CUPTI over a few calls after the timed ones (kernels per call, and their summed "
             "GPU time per call), MISMATCH where the count disagrees with the ledger; DRAM MB: Nsight Compute "
             "over one call (caches flushed). Raw logs are in the run folder beside this file.",
             ""]
    old_fuselab = any(r["kind"] != "peer" and r.get("timing") == "host" for r in records)
    if old_fuselab:
        lines += ["**fuselab's `us` in this run is host wall clock (`timing` host: the run predates event "
                  "timing), not do_bench's measure: where it meets a peer's `events`, `holds` is marked `*`, "
                  "not like for like.**", ""]
    lines += ["## Targets (issue 4)", "",
              "`holds` compares `us` (the peers' do_bench measure, `timing` of each side in brackets where they "
              "differ). `host holds` compares `host us` (the best fuselab strategy by host time, named where it "
              "is another; the reference peer's host time, or the fixed figure), so that neither measure alone "
              "decides. `by kernel` compares `kernel us` (CUPTI, the GPU time of fuselab's kernels alone) with "
              "the reference's `us`, at sizes past launch cost.", "",
              "| workload | size | target | best fuselab | us | kernel us | reference | us | holds | by kernel | "
              "host us | ref host us | host holds |",
              "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for wl, size, rule, text in TARGETS:
        rows = groups.get((wl, size), [])
        b = best(rows, True)
        lhs, rhs = rule.split(" <= ")
        ref_name, ref_us, ref_host, ref_timing = rhs, None, None, None
        if rhs.replace(".", "").isdigit():
            ref_us = ref_host = float(rhs)
            ref_name = "fixed"
        else:
            ref = [r for r in rows if r["name"] == rhs and r.get("median_us")]
            if ref:
                ref_us, ref_host, ref_timing = ref[0]["median_us"], ref[0].get("host_us"), ref[0].get("timing")
        if not b:
            lines.append(f"| {wl} | {size} | {text} | - | - | - | - | - | NO | - | - | - | - |")
            continue
        kus = b.get("kernel_us")
        holds = "-" if ref_us is None else "yes" if b["median_us"] <= ref_us else "NO"
        if ref_timing and b.get("timing") != ref_timing and holds != "-":
            holds += f"* ({b.get('timing')} vs {ref_timing})"
        # At launch-bound sizes do_bench's own event overhead dominates: no like-for-like there.
        launch_bound = size.isdigit() and int(size) < (1 << 20)
        by_kernel = ("-" if kus is None or ref_us is None or launch_bound else
                     "yes" if kus <= ref_us else "NO")
        bh = best_host(rows)
        host_cell = "-" if not bh else us(bh["host_us"]) + ("" if bh["name"] == b["name"] else f" ({bh['name']})")
        host_holds = "-" if not bh or ref_host is None else "yes" if bh["host_us"] <= ref_host else "NO"
        lines.append(f"| {wl} | {size} | {text} | {b['name']} | {b['median_us']:.1f} | {us(kus)} | {ref_name} | "
                     f"{us(ref_us)} | {holds} | {by_kernel} | {host_cell} | {us(ref_host)} | {host_holds} |")
    lines.append("")
    for (wl, size), rows in groups.items():
        rows = sorted(rows, key=lambda r: r.get("median_us") or 1e30)
        lines += [f"## {wl} {size}", "",
                  "| name | kind | us | timing | host us | kernel us | kernels | launches | interm MB | DRAM MB | "
                  "floor us | % of floor | check |", "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
        for r in rows:
            med = r.get("median_us")
            pct = f"{100 * r['floor_us'] / med:.0f}%" if med and r.get("floor_us") else "-"
            im = r.get("intermediate_bytes")
            im = f"{im / 1e6:.1f}" if im is not None else "-"
            floor = f"{r['floor_us']:.1f}" if r.get("floor_us") else "-"
            kernels = r["kernels"] if r["kernels"] is not None else "-"
            launches = r.get("launches_measured")
            per_call = r.get("launches_per_call")
            if launches is not None:
                launches = str(launches) + (" MISMATCH" if r["kernels"] is not None and launches != r["kernels"] else "")
            else:  # the traced calls launched different numbers of kernels
                launches = f"{min(per_call)}..{max(per_call)} VARIES" if per_call else "-"
            kus = us(r.get("kernel_us"))
            dram = f"{r['dram_bytes'] / 1e6:.1f}" if r.get("dram_bytes") is not None else "-"
            check = "ok" if r["ok"] else ("ERROR: " + str(r.get("error"))[:60] if r.get("error") else "WRONG")
            lines.append(f"| {r['name']} | {r['kind']} | {med:.1f} | {r.get('timing') or '-'} | {us(r.get('host_us'))} | "
                         f"{kus} | {kernels} | {launches} | {im} | {dram} | {floor} | {pct} | {check} |"
                         if med else f"| {r['name']} | {r['kind']} | - | - | - | - | - | - | - | - | - | - | {check} |")
        lines.append("")
    if regs:
        caps = sorted({c for v in regs.values() for c in v})
        lines += ["## Register pressure (seed §1.6): us under each JIT register cap "
                  "(HL_CUDA_JIT_MAX_REGISTERS; Halide 21's default is 64, fuselab's 128)", "",
                  f"timing: {', '.join(sorted(t for t in regs_timing if t)) or '-'}", "",
                  "| workload | size | name | " + " | ".join(f"{c} regs" for c in caps) + " |",
                  "|---|---|---|" + "---|" * len(caps)]
        for (w, s, n), by_cap in sorted(regs.items()):
            cells = " | ".join(f"{by_cap[c]:.1f}" if by_cap.get(c) else "-" for c in caps)
            lines.append(f"| {w} | {s} | {n} | {cells} |")
        lines.append("")
    stalls_path = os.path.join(args.run, "stalls.md")  # gpu_run.sh stalls (ncu_stalls.sh)
    if os.path.exists(stalls_path):
        lines += ["## Issue rate and warp stalls (Nsight Compute)", "",
                  "Cycles a warp waits per issued instruction, by reason. The hand-written kernels are "
                  "one code, with the weights in constant memory, read once a warp into uniform registers "
                  "that the FFMAs take as operands (hand_const), or loaded from global memory "
                  "(hand_global), as a Halide 21 CUDA schedule must.", "",
                  open(stalls_path).read().strip(), ""]
    sweep_path = os.path.join(args.run, "sweep.json")
    if os.path.exists(sweep_path):
        lines += sweep_section(load(sweep_path))
    with open(os.path.join(args.out, "h200.md"), "w") as f:
        f.write("\n".join(l for l in lines if l is not None) + "\n")

    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("report: no matplotlib, no chart", file=sys.stderr)
        return
    keys = list(groups)
    cols = 3
    rows_n = (len(keys) + cols - 1) // cols
    fig, axes = plt.subplots(rows_n, cols, figsize=(6 * cols, 3.2 * rows_n))
    for ax, key in zip(axes.flat, keys):
        rs = sorted([r for r in groups[key] if r.get("median_us")], key=lambda r: r["median_us"])
        colors = ["tab:orange" if r["kind"] == "peer" else "tab:green" if r["kind"] == "seed_cuda" else "tab:blue"
                  for r in rs]
        ax.barh([r["name"] for r in rs], [r["median_us"] for r in rs], color=colors)
        host = [(i, r["host_us"]) for i, r in enumerate(rs) if r.get("host_us")]
        if host:
            ax.scatter([h for _, h in host], [i for i, _ in host], marker="|", s=120, color="black",
                       zorder=3)
        floors = [r["floor_us"] for r in rs if r.get("floor_us")]
        if floors:
            ax.axvline(min(floors), color="black", linestyle="--", linewidth=1)
        ax.set_title(f"{key[0]} {key[1]}", fontsize=9)
        ax.set_xlabel("us (bars, each row's timing); |: host us; dashed: floor", fontsize=8)
        ax.tick_params(labelsize=7)
        ax.invert_yaxis()
    for ax in list(axes.flat)[len(keys):]:
        ax.axis("off")
    fig.suptitle("fuselab strategies (blue), hand-written CUDA (green), PyTorch peers (orange) on one H200", fontsize=11)
    fig.tight_layout()
    fig.savefig(os.path.join(args.out, "h200.png"), dpi=90)


if __name__ == "__main__":
    main()
