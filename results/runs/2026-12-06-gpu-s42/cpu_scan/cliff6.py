import sys, time, numpy as np
sys.path.insert(0, "python")
import fuselab
k = fuselab.kernel("softmax", sys.argv[1], "cpu")
n, m = int(sys.argv[2]), int(sys.argv[3])
def t(x, out, reps=20):
    for _ in range(2): k(x=x, out=out)
    ts=[]
    for _ in range(5):
        t0=time.perf_counter()
        for _ in range(reps//5): k(x=x, out=out)
        ts.append((time.perf_counter()-t0)/(reps//5))
    return sorted(ts)[2]*1e6
big = np.empty(120 << 20, np.uint8)
base = big.ctypes.data
def at(off):
    start = (-base) % (1 << 21) + off
    return big[start:start + m * n * 4].view(np.float32).reshape(m, n)
src = np.random.default_rng(1).uniform(-1, 1, (m, n)).astype(np.float32)
D0 = 20 << 20
res = []
for label, d in [(f"+{j}*4K", D0 + j * 4096) for j in range(0, 8)] + [(f"+{b}B", D0 + b) for b in (64, 128, 192, 256, 512, 1024, 2048, 3072)] + [(f"+{j}*64K", D0 + j * 65536) for j in (1, 2, 3, 5, 8)] + [(f"+{j}M", D0 + (j << 20)) for j in (1, 2, 3, 4)]:
    out = at(128); x = at(128 + d); x[:] = src
    a = t(x, out)
    print(f"x - out = 20M {label:>8s}: {a:7.0f}", flush=True)
