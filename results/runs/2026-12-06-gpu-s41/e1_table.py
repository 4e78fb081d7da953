# e1/: TB/s at the minimum bytes of each strategy (row_grid) and of the peers (peers.json), by
# (pipeline, dtype, N), the copy of the same call as the ceiling. Prints one line a cell: the
# shipped strategies' best, each experimental copy, the strongest peer.
import collections, json, sys, glob
d = sys.argv[1] if len(sys.argv) > 1 else "e1"
t = collections.defaultdict(dict)
for f in glob.glob(f"{d}/f32_*.json") + glob.glob(f"{d}/h16_*.json"):
    for r in json.load(open(f))["records"]:
        if r.get("ok"):
            n = int(r["size"].split("x")[0])
            t[r["workload"], r["dtype"], n][r["name"]] = r["min_bytes"] / r["median_us"] / 1e6
peers = collections.defaultdict(dict)
copy = None
for r in json.load(open(f"{d}/peers.json"))["records"]:
    if r.get("workload") == "copy" or r.get("name") == "copy":
        copy = copy or r
        continue
    if r.get("ok", True) and r.get("median_us"):
        n = int(r["size"].split("x")[0])
        peers[r["workload"], r["dtype"], n][r["name"]] = r["min_bytes"] / r["median_us"] / 1e6
print("copy record:", {k: copy[k] for k in copy if k in ("name", "median_us", "min_bytes", "size")} if copy else None)
xs = ["x8kbv", "x4kbv", "x4kbv512", "x2kbv"]
print(f"{'op':10} {'dtype':9} {'N':>6} {'shipped best':>22} " + " ".join(f"{x:>9}" for x in xs) + "  best x / shipped   peer")
for key in sorted(t):
    v = t[key]
    shipped = max(((s, k) for k, s in v.items() if k not in xs), default=(0, "-"))
    bx = max((v.get(x, 0) for x in xs))
    pe = max(((s, k) for k, s in peers.get(key, {}).items()), default=(0, "-"))
    print(f"{key[0]:10} {key[1]:9} {key[2]:6} {shipped[0]:6.2f} {shipped[1]:>15} " +
          " ".join(f"{v.get(x, 0):9.2f}" for x in xs) + f"  {bx / shipped[0]:6.3f}   " +
          (f"{pe[0]:.2f} {pe[1]}" if pe[0] else ""))
