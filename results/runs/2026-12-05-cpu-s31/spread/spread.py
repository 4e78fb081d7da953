# Run-to-run spread of each rmsnorm_residual CPU strategy over three runs of m/grid_m.sh's 2^21
# sizes (8 lengths x 3 types): m/grid_rows_m21.json (all three pipelines in one process) and two
# later runs of rmsnorm_residual alone (run3 with GLIBC_TUNABLES=glibc.malloc.mmap_threshold=1073741824:
# glibc.malloc.trim_threshold=4294967296, to see whether malloc's page faults made unfused's
# slow runs: they did not, its spread is the same). From the repository root.
import json, statistics as st
R = "results/runs/2026-12-05-cpu-s31"
runs = [json.load(open(f"{R}/{p}"))["records"] for p in
        ("spread/rows_m21_run2.json", "spread/rows_m21_run3_glibc_tunables.json", "m/grid_rows_m21.json")]
T = [{(r["size"], r["dtype"], r["name"]): r["median_us"] for r in rr
      if r.get("kind") == "fuselab" and r["workload"] == "rmsnorm_residual"} for rr in runs]
by = {}
for k in set(T[0]) & set(T[1]) & set(T[2]):
    v = [t[k] for t in T]
    by.setdefault(k[2], []).append(max(v) / min(v))
for s, l in sorted(by.items()):
    print(f"{s:10s} {len(l)} shapes: slowest over fastest run, median {st.median(l):.2f}, "
          f"over 1.3 at {sum(x > 1.3 for x in l)}, max {max(l):.2f}")
