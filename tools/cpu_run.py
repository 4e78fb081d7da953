#!/usr/bin/env python3
"""Runs and checks peers/cpu_peers.py end to end, and assembles one CPU run for results/report_cpu.py
until `fuselab bench` calls the peers itself.

For each workload: writes random inputs in [-1, 1], runs cpu_peers.py on them, and compares
every peer's outputs with a float64 numpy reference by the suite's measure
(||out - ref|| / max(||ref||, sqrt(n)), runtime/fuselab/workloads.h) against the workload's
tolerance (1e-5; 1e-4 for conv_relu_pool).

    .venv/bin/python tools/cpu_run.py [--default-sizes] [WORKLOAD ...]     small sizes: a check
    .venv/bin/python tools/cpu_run.py --default-sizes --budget 0.5 --peers-json peers.json
    .venv/bin/python tools/cpu_run.py --assemble --fuselab bench_cpu.json --peers-json peers.json
        --probe probe.json --out run.json                                 one run, h200.json's schema

--probe is tools/cpu_probe_main.cpp's output (its last line is JSON: copy bandwidth, FMA peak);
given more than once (before and after the run), the highest of each figure is taken.
"""
import argparse
import statistics
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "bench", "cpu_peers.py")
SIZES = {  # (small, fuselab's default CPU size)
    "add_relu": ("100003", "16777216"),
    "pointwise_chain": ("100003", "16777216"),
    "branches": ("100003", "16777216"),
    "branches_indep": ("100003", "16777216"),
    "conv_relu_pool": ("67x41x3x16", "1920x1080x3x16"),
    "blur3x3": ("301x97", "4096x4096"),
    "stencil_chain_k2": ("301x97", "4096x4096"),
    "stencil_chain_k4": ("301x97", "4096x4096"),
    "stencil_chain_k8": ("301x97", "4096x4096"),
}


def inputs(wl, size, rng):
    d = [int(v) for v in size.split("x")]
    u = lambda *s: rng.uniform(-1, 1, s).astype(np.float32)  # noqa: E731
    if wl in ("add_relu",):
        return {"a": u(d[0]), "b": u(d[0])}
    if wl in ("pointwise_chain", "branches"):
        return {"x": u(d[0])}
    if wl == "branches_indep":
        return {"x": u(d[0]), "y": u(d[0])}
    if wl == "conv_relu_pool":
        w, h, c, k = d
        return {"input": u(c, h, w), "weights": u(k, c, 3, 3), "bias": u(k)}
    halo = 2 if wl == "blur3x3" else int(wl[len("stencil_chain_k"):])
    return {"in": u(d[1] + halo, d[0] + halo)}


def reference(wl, x):
    x = {k: v.astype(np.float64) for k, v in x.items()}
    if wl == "add_relu":
        return {"out": np.maximum(0, x["a"] + x["b"])}
    if wl == "pointwise_chain":
        v = np.maximum(0, 1.5 * x["x"] + 0.25) * 0.75 - 0.1
        v = 2 * np.tanh(v) + 1
        return {"out": 3 / (1 + np.exp(-v))}
    if wl in ("branches", "branches_indep"):
        y = x["y"] if wl == "branches_indep" else x["x"]
        return {"out1": np.maximum(0, 2 * x["x"] + 1), "out2": 0.5 / (1 + np.exp(-y))}
    if wl == "conv_relu_pool":
        inp, wt, b = x["input"], x["weights"], x["bias"]
        c, h, w = inp.shape
        p = np.zeros((c, h + 2, w + 2))
        p[:, 1:-1, 1:-1] = inp
        conv = np.zeros((wt.shape[0], h, w)) + b[:, None, None]
        for dy in range(3):
            for dx in range(3):
                conv += np.einsum("kc,chw->khw", wt[:, :, dy, dx], p[:, dy:dy + h, dx:dx + w])
        r = np.maximum(conv, 0)[:, :h // 2 * 2, :w // 2 * 2]
        return {"out": r.reshape(r.shape[0], h // 2, 2, w // 2, 2).max(axis=(2, 4))}
    s = x["in"]
    if wl == "blur3x3":
        bx = (s[:, :-2] + s[:, 1:-1] + s[:, 2:]) / 3
        return {"out": (bx[:-2] + bx[1:-1] + bx[2:]) / 3}
    for _ in range(int(wl[len("stencil_chain_k"):])):
        s = (s[:-1, :-1] + s[:-1, 1:] + s[1:, :-1] + s[1:, 1:]) / 4
    return {"out": s}


def rel_err(out, ref):
    out = out.astype(np.float64)
    if not np.all(np.isfinite(out)):
        return float("inf")
    return float(np.linalg.norm(out - ref) / max(np.linalg.norm(ref), np.sqrt(ref.size)))


def min_bytes(x, ref):
    return 4 * (sum(v.size for v in x.values()) + sum(v.size for v in ref.values()))


def assemble(args):
    """fuselab bench --json rows + the peers' records + the probe's figures: one run."""
    with open(args.fuselab) as f:
        fl = json.load(f)
    with open(args.peers_json) as f:
        peers = json.load(f)
    probes = [load_probe(path) for path in args.probe]
    # Several probes (before and after the run): the highest figures, the strictest floor and peak.
    probe = max(probes, key=lambda p: p["copy_bandwidth_gbs"])
    bw = probe["copy_bandwidth_gbs"]
    peak = max(p["fma_peak_gflops"] for p in probes)
    records = []
    for r in fl["records"] + peers["records"]:
        r = dict(r)
        r.setdefault("kind", "fuselab")
        if r.get("min_bytes"):
            r["floor_us"] = r["min_bytes"] / (bw * 1e3)
        records.append(r)
    meta = {"date": fl["meta"].get("date"), "cpu": fl["meta"].get("cpu"), "fuselab": fl["meta"],
            "peers": peers["meta"], "copy_bandwidth_gbs": bw, "copy_methods": probe.get("copy_methods", []),
            "fma_peak_gflops": peak, "probes": probes,
            "commands": args.command or [], "notes": args.note or []}
    with open(args.out, "w") as f:
        json.dump({"meta": meta, "records": records}, f, indent=1)
    print(f"wrote {args.out}: {len(records)} records")
    return 0


def load_probe(path):
    with open(path) as f:  # the probe's output: its last line is the JSON object
        return json.loads([l for l in f.read().splitlines() if l.startswith("{")][-1])


def assemble_dir(args):
    """A run made workload by workload (tools/cpu_run_all.sh): DIR/<workload>.probe_before.txt and
    .probe_after.txt (the copy bandwidth, and around conv_relu_pool the FMA peak), .bench.json
    (fuselab bench --pipeline W --json), .peers.json (this script). Each record's floor uses the
    higher copy bandwidth probed just before or after its own workload."""
    records, by_workload, probes, metas, peak = [], {}, {}, [], None
    for name in sorted(os.listdir(args.dir)):
        if not name.endswith(".bench.json"):
            continue
        wl = name[:-len(".bench.json")]
        ps = [load_probe(os.path.join(args.dir, f"{wl}.{w}.txt")) for w in ("probe_before", "probe_after")
              if os.path.exists(os.path.join(args.dir, f"{wl}.{w}.txt"))]
        bw = max(p["copy_bandwidth_gbs"] for p in ps)
        by_workload[wl] = bw
        probes[wl] = ps
        if any(p.get("fma_peak_gflops") for p in ps):
            peak = max(p["fma_peak_gflops"] for p in ps)
        with open(os.path.join(args.dir, name)) as f:
            fl = json.load(f)
        metas.append(fl["meta"])
        rows = fl["records"]
        peers_path = os.path.join(args.dir, f"{wl}.peers.json")
        if os.path.exists(peers_path):
            with open(peers_path) as f:
                rows = rows + json.load(f)["records"]
        for r in rows:
            r = dict(r)
            r.setdefault("kind", "fuselab")
            r["copy_bandwidth_gbs"] = bw
            if r.get("min_bytes"):
                r["floor_us"] = r["min_bytes"] / (bw * 1e3)
            records.append(r)
    first = next((p for ps in probes.values() for p in ps), {})
    meta = {"date": metas[0].get("date") if metas else None, "cpu": metas[0].get("cpu") if metas else None,
            "copy_bandwidth_gbs": statistics.median(by_workload.values()) if by_workload else None,
            "copy_bandwidth_by_workload": by_workload, "copy_methods": first.get("copy_methods", []),
            "fma_peak_gflops": peak, "probes": probes, "fuselab": metas,
            "commands": args.command or [], "notes": args.note or []}
    with open(args.out, "w") as f:
        json.dump({"meta": meta, "records": records}, f, indent=1)
    print(f"wrote {args.out}: {len(records)} records")
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", help="with --assemble: a run made workload by workload (tools/cpu_run_all.sh)")
    ap.add_argument("--default-sizes", action="store_true", help="fuselab's CPU sizes (slow)")
    ap.add_argument("--budget", default="0.1")
    ap.add_argument("--peers-json", help="write (or, with --assemble, read) the peers' records here")
    ap.add_argument("--assemble", action="store_true", help="merge --fuselab, --peers-json, --probe into --out")
    ap.add_argument("--fuselab", help="fuselab bench --json output")
    ap.add_argument("--probe", action="append", help="tools/cpu_probe_main.cpp's output (repeatable: the "
                    "highest copy bandwidth and FMA peak are taken)")
    ap.add_argument("--out", help="the assembled run")
    ap.add_argument("--command", action="append", help="a command of this run, for the report")
    ap.add_argument("--note", action="append", help="a note for the report")
    ap.add_argument("workloads", nargs="*", default=list(SIZES))
    args = ap.parse_args()
    if args.assemble:
        return assemble_dir(args) if args.dir else assemble(args)
    peer_records = []
    rng = np.random.default_rng(1)
    failed = 0
    for wl in args.workloads:
        size = SIZES[wl][1 if args.default_sizes else 0]
        tol = 1e-4 if wl == "conv_relu_pool" else 1e-5
        with tempfile.TemporaryDirectory() as d:
            x = inputs(wl, size, rng)
            for k, v in x.items():
                np.save(os.path.join(d, k + ".npy"), v)
            ref = reference(wl, x)
            run = subprocess.run([sys.executable, SCRIPT, "--dir", d, "--workload", wl, "--size", size,
                                  "--budget", args.budget], capture_output=True, text=True)
            if run.returncode != 0:
                print(f"{wl} {size}: cpu_peers.py exited {run.returncode}\n{run.stderr}")
                failed += 1
                continue
            for line in run.stdout.splitlines():
                rec = json.loads(line)
                if "error" in rec:
                    print(f"{wl:17s} {size:15s} {rec['name']:12s} ERROR {rec['error']}")
                    failed += 1
                    peer_records.append({"workload": wl, "size": size, "kind": "peer", **rec, "ok": False})
                    continue
                errs = {o: rel_err(np.load(os.path.join(d, f"{rec['name']}.{o}.npy")), r) for o, r in ref.items()}
                worst = max(errs.values())
                ok = worst <= tol
                failed += not ok
                peer_records.append({"workload": wl, "size": size, "kind": "peer", **rec, "ok": ok,
                                     "rel_err": worst, "min_bytes": min_bytes(x, ref)})
                print(f"{wl:17s} {size:15s} {rec['name']:12s} {rec['median_us']:10.1f} us  "
                      f"{'ok' if ok else 'WRONG'} {worst:.1e}  x{rec['repeats']} of {rec['calls_per_repeat']}, "
                      f"{rec['threads']} threads: {rec['note']}")
    if args.peers_json:
        import datetime
        import platform
        versions = {}
        for mod in ("numpy", "numexpr", "onnxruntime", "onnx", "cv2"):
            try:
                versions[mod] = __import__(mod).__version__
            except ImportError:
                versions[mod] = None
        meta = {"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
                "python": platform.python_version(), "versions": versions, "budget_s": float(args.budget)}
        with open(args.peers_json, "w") as f:
            json.dump({"meta": meta, "records": peer_records}, f, indent=1)
    print(f"{'all ok' if not failed else f'{failed} FAILED'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
