# ab2.sh's raw lines: per (pipeline, size, dtype), each build's fastest strategy (median over
# rounds) and the strongest peer, and NEW's fastest against OLD's and against the peer.
import collections, statistics, sys
t = collections.defaultdict(list)
for line in open(sys.argv[1]):
    k, b, p, size, dtype, name, us = line.split()
    if us == "-" or name.startswith("x"): continue
    t[p, size, dtype, b if b == "old" or name not in ("numpy", "onnxruntime", "numexpr", "opencv") else "peer", name].append(float(us))
cells = sorted({key[:3] for key in t})
print(f"{'pipeline':17} {'size':11} {'dtype':9} {'old best':>22} {'new best':>22} {'peer':>20} new/old new/peer")
for c in cells:
    best = {}
    for b in ("old", "new", "peer"):
        v = [(statistics.median(x), key[4]) for key, x in t.items() if key[:3] == c and key[3] == b]
        best[b] = min(v) if v else (float("nan"), "-")
    o, n, pe = best["old"], best["new"], best["peer"]
    print(f"{c[0]:17} {c[1]:11} {c[2]:9} {o[0]:8.1f} {o[1]:>13} {n[0]:8.1f} {n[1]:>13} {pe[0]:8.1f} {pe[1]:>11} {n[0]/o[0]:7.2f} {n[0]/pe[0]:8.2f}")
