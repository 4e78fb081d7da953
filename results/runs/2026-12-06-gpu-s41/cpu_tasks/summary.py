# Medians over rounds of ab.sh's raw lines, and each name's ratio to ONNX Runtime's median.
import collections, statistics, sys
t = collections.defaultdict(list)
for line in open(sys.argv[1]):
    k, size, name, us = line.split()
    t[size, name].append(float(us))
for size in sorted({s for s, _ in t}):
    ort = statistics.median(t[size, "onnxruntime"])
    for (s, name), v in sorted(t.items()):
        if s == size and name != "numpy":
            m = statistics.median(v)
            print(f"{size:12} {name:16} median {m:7.1f} us over {len(v)} rounds, {m / ort:.2f}x ORT")
