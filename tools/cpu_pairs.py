#!/usr/bin/env python3
"""On a shared, noisy machine: each fuselab variant's time against the copy floor (or the FMA
peak) measured right before and right after it, several rounds, so that each ratio compares
figures of the same moment. The median ratio over the rounds is the robust figure.

    .venv/bin/python tools/cpu_pairs.py --probe /tmp/cpu_probe --rounds 5
        [--variant add_relu:fused:16777216 ...]

--probe: tools/cpu_probe_main.cpp built (see its header). Prints one line a round and variant,
then the medians; --json writes them.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
DEFAULT = ["add_relu:fused:16777216", "pointwise_chain:fused:16777216", "blur3x3:inline:4096x4096",
           "conv_relu_pool:tiled:1920x1080x3x16", "conv_relu_pool:auto:1920x1080x3x16"]


def probe(path, fma):
    out = subprocess.run([path, "0", "64"] + ([] if fma else ["copy"]), capture_output=True, text=True,
                         check=True).stdout
    return json.loads([l for l in out.splitlines() if l.startswith("{")][-1])


def bench(pipeline, schedule, size):
    with tempfile.NamedTemporaryFile(suffix=".json") as f:
        subprocess.run([os.path.join(ROOT, "build", "bench", "fuselab"), "bench", "--target", "cpu",
                        "--pipeline", pipeline, "--schedule", schedule, "--size", size, "--json", f.name],
                       capture_output=True, text=True, check=True)
        return json.load(open(f.name))["records"][0]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--probe", required=True)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--variant", action="append", help="pipeline:schedule:size")
    ap.add_argument("--json")
    args = ap.parse_args()
    ratios = {}
    for rnd in range(args.rounds):
        for v in args.variant or DEFAULT:
            p, s, size = v.split(":")
            conv = p == "conv_relu_pool"
            a = probe(args.probe, conv)
            r = bench(p, s, size)
            b = probe(args.probe, conv)
            if conv:
                peak = max(a["fma_peak_gflops"], b["fma_peak_gflops"])
                g = r["flops"] / r["median_us"] / 1e3
                val = g / peak
                print(f"round {rnd} {v}: {r['median_us']:.1f} us, {g:.0f} GFLOP/s, peak {peak:.0f} "
                      f"({a['fma_peak_gflops']:.0f}, {b['fma_peak_gflops']:.0f}): {100 * val:.0f}% of peak", flush=True)
            else:
                bw = max(a["copy_bandwidth_gbs"], b["copy_bandwidth_gbs"])
                st = max(m["median_gbs"] for m in a["copy_methods"] + b["copy_methods"] if m["name"] == "vector_store")
                floor = r["min_bytes"] / (bw * 1e3)
                val = r["median_us"] / floor
                print(f"round {rnd} {v}: {r['median_us']:.1f} us, copy {bw:.1f} GB/s "
                      f"({a['copy_bandwidth_gbs']:.1f}, {b['copy_bandwidth_gbs']:.1f}), floor {floor:.1f} us: "
                      f"{val:.2f}x floor, {r['median_us'] / (r['min_bytes'] / (st * 1e3)):.2f}x the plain-store "
                      f"copy's ({st:.1f} GB/s)", flush=True)
            ratios.setdefault(v, []).append(val)
    summary = {v: statistics.median(x) for v, x in ratios.items()}
    for v, m in summary.items():
        print(f"median over {len(ratios[v])} rounds, {v}: " + (f"{100 * m:.0f}% of the FMA peak" if v.startswith(
            "conv_relu_pool") else f"{m:.2f}x the copy floor"))
    if args.json:
        json.dump({"ratios": ratios, "median": summary}, open(args.json, "w"), indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
