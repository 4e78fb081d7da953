import json, subprocess, sys, statistics, collections
b = sys.argv[1]; args = sys.argv[2:]
res = collections.defaultdict(list)
for rep in range(3):
    subprocess.run([b, "bench", "--target", "cpu", "--budget", "0.3", "--no-check", "--json", "/tmp/pe.json",
                    "--peers", "/work/main/.venv/bin/python /work/main/peers/cpu_peers.py"] + args, capture_output=True)
    for r in json.load(open("/tmp/pe.json"))["records"]:
        if r.get("min_us"):
            res[(r["workload"], r["dtype"], r["size"], r["name"])].append(r["min_us"])
for k in sorted(res):
    print(" ".join(k), f"{statistics.median(res[k]):8.0f}", len(res[k]))
