#!/usr/bin/env python3
"""s46: n1's Nsight Compute records (ncu/*.csv, an H100) per kernel: time, DRAM bytes against the
minimum (each input row read once, each output written once), L2, L1 and shared traffic, warp
instructions an element,
occupancy, registers, and the two largest stall reasons (warps stalled per issue).
  python3 results/runs/2026-12-07-gpu-s46/n1/summarize.py > results/runs/2026-12-07-gpu-s46/n1/summary.txt"""
import csv, glob, io, os
H = os.path.dirname(os.path.abspath(__file__))
# arrays a row pipeline reads and writes per element: softmax x -> y; layernorm x -> y (+ two
# vectors of N); rmsnorm_residual x, r -> y, h (+ one vector of N)
streams = {"softmax": 2, "layernorm": 2, "rmsnorm_residual": 4}
print(f"{'pipeline':17} {'dtype':9} {'N':>6} {'schedule':16} {'us':>8} {'DRAM/min':>8} {'L2/min':>7} "
      f"{'L1/min':>7} {'shm wf/elem':>11} {'instr/elem':>10} {'occ%':>5} {'regs':>4} {'smem KB':>7}  top stalls")
for f in sorted(glob.glob(f"{H}/ncu/*.csv")):
    lines = open(f).read().splitlines()
    op, dt, n, s = lines[0].split(",")[:4]
    start = next((i for i, l in enumerate(lines) if l.startswith('"ID"')), None)
    if start is None:
        print(f"{op:17} {dt:9} {n:>6} {s:16} no kernel profiled (see err.txt / the file)")
        continue
    rows = list(csv.DictReader(io.StringIO("\n".join([lines[start]] + lines[start + 2:]))))
    for r in rows:
        g = lambda k: float(r[k].replace(",", "")) if r.get(k) not in (None, "", "n/a") else float("nan")
        elems = 1 << 26
        b = 2 if dt in ("bfloat16", "float16") else 4
        minimum = streams[op] * elems * b
        dram = g("dram__bytes_read.sum") + g("dram__bytes_write.sum")
        t = g("gpu__time_duration.sum") / 1e3  # ns -> us
        stalls = {k.split("stalled_")[1].split("_per")[0]: g(k) for k in r if "issue_stalled" in k}
        top = sorted(stalls.items(), key=lambda kv: -kv[1])[:2]
        print(f"{op:17} {dt:9} {n:>6} {s:16} {t:8.1f} {dram/minimum:8.2f} {g('lts__t_bytes.sum')/minimum:7.2f} "
              f"{g('l1tex__t_bytes.sum')/minimum:7.2f} {g('l1tex__data_pipe_lsu_wavefronts_mem_shared.sum')/elems:11.3f} "
              f"{g('smsp__inst_executed.sum')/elems:10.3f} "
              f"{g('sm__warps_active.avg.pct_of_peak_sustained_active'):5.1f} {int(g('launch__registers_per_thread')):4d} "
              f"{g('launch__shared_mem_per_block')/1024:7.1f}  " + ", ".join(f"{k} {v:.2f}" for k, v in top)
              + f"  [{r.get('Kernel Name','')[:28]} grid {r.get('Grid Size','')} block {r.get('Block Size','')}]")
