# ab_summary.py RAW: per (pipeline, dtype, schedule, size, threads) the median over rounds of A's
# and B's medians and A/B (above 1: B faster).
import sys, statistics as st, collections
d = collections.defaultdict(lambda: {"A": [], "B": []})
for line in open(sys.argv[1]):
    k, w, p, dt, s, sz, t, us = line.split()
    d[(p, dt, s, sz, t)][w].append(float(us))
for key, v in d.items():
    a, b = st.median(v["A"]), st.median(v["B"])
    print(*key, "A %.1f B %.1f A/B %.3f" % (a, b, a / b), "rounds", len(v["A"]))
