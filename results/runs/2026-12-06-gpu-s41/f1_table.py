# f1/long*_*.json (an H100, the final build): by (pipeline, type, shape), staged_row_2k's TB/s
# beside the best of every other strategy of the same run, and the copy-relative figures (copy
# 3.02 TB/s in e1's call on an H100; f1 timed no copy).
import collections, glob, json
for f in sorted(glob.glob("f1/long*_*.json")):
    cells = collections.defaultdict(dict)
    for r in json.load(open(f))["records"]:
        if r.get("ok"):
            cells[r["workload"], r["dtype"], r["size"]][r["name"]] = r["min_bytes"] / r["median_us"] / 1e6
    for key in sorted(cells, key=lambda k: (k[0], k[1], int(k[2].split("x")[0]), int(k[2].split("x")[1]))):
        v = cells[key]
        s2 = v.get("staged_row_2k", 0)
        other = max(((x, k) for k, x in v.items() if k != "staged_row_2k"))
        print(f"{key[0]:10} {key[1]:9} {key[2]:12} staged_row_2k {s2:5.2f}  best other {other[0]:5.2f} "
              f"{other[1]:15} ratio {s2 / other[0]:5.3f}")
