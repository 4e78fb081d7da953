import sys, time, numpy as np
sys.path.insert(0, "python")
import fuselab
k = fuselab.kernel("softmax", "block_row", "cpu")
def t(x, out, reps=30):
    for _ in range(3): k(x=x, out=out)
    ts=[]
    for _ in range(5):
        t0=time.perf_counter()
        for _ in range(reps//5): k(x=x, out=out)
        ts.append((time.perf_counter()-t0)/(reps//5))
    return sorted(ts)[2]*1e6
n, m = 280, 14980
big = np.empty(130 << 20, np.uint8)
base = big.ctypes.data
def at(off):  # float32 [m, n] view at byte offset off from a 4 KB boundary + 128
    start = (-base) % 4096 + off
    return big[start:start + m * n * 4].view(np.float32).reshape(m, n)
src = np.random.default_rng(1).uniform(-1, 1, (m, n)).astype(np.float32)
for dist in [93577216, 16 << 20, 93577216 + 4096, 93577216 + 64, 50 << 20, (50 << 20) + 0x3E000]:
    out = at(128); x = at(128 + dist); x[:] = src
    a = t(x, out)
    x2 = at(128); out2 = at(128 + dist); x2[:] = src
    b = t(x2, out2)
    print(f"dist {dist:>10d} (mod 4M {dist % (1<<22):>8d}): out below x {a:7.0f}  x below out {b:7.0f}", flush=True)
