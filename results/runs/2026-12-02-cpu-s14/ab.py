import json, subprocess, sys, statistics, collections
bins = sys.argv[1].split(",")
args = sys.argv[2:]
res = collections.defaultdict(list)
for rep in range(5):
    for b in bins:
        subprocess.run([b, "bench", "--target", "cpu", "--budget", "0.3", "--no-check", "--json", "/tmp/ab.json"] + args,
                       capture_output=True)
        for r in json.load(open("/tmp/ab.json"))["records"]:
            if r["kind"] == "fuselab":
                res[(r["workload"], r["name"], r["dtype"], r["size"], b)].append(r["min_us"])
keys = sorted({k[:4] for k in res})
for k in keys:
    row = [statistics.median(res[k + (b,)]) for b in bins]
    print(" ".join(k), " ".join(f"{v:8.0f}" for v in row), " ".join(f"{row[0]/v:5.2f}x" for v in row[1:]))
