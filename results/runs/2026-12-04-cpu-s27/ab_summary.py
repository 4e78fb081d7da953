"""ab_rows.txt from ab_rows_raw.txt: per (pipeline, dtype, strategy, size) the median over the
rounds of A's (3e66721) and B's (22df328) per-call medians, and A / B (above 1: B faster)."""
import collections, statistics, sys
d = collections.defaultdict(list)
for line in open(sys.argv[1]):
    k, w, p, t, s, sz, us = line.split()
    d[(p, t, s, sz, w)].append(float(us))
print("# pipeline dtype strategy size: A (3e66721) us, B (22df328) us, A/B; median of the rounds")
for key in sorted({k[:4] for k in d}):
    a = statistics.median(d[key + ("A",)]); b = statistics.median(d[key + ("B",)])
    print(f"{key[0]:17s} {key[1]:9s} {key[2]:10s} {key[3]:10s} A {a:8.1f} B {b:8.1f} A/B {a / b:5.3f}")
