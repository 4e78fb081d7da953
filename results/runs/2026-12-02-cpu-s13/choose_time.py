"""The cost of fuselab_choose (the C ABI's choose()) at new shapes and at a repeated one, through ctypes:
softmax on the CPU, [3, N] float32 for 40 N from 1001 (each a shape the process has not seen).
  .venv/bin/python results/runs/2026-12-02-cpu-s13/choose_time.py   (after ./fuselab build)"""
import ctypes, time, numpy as np
import os
lib = ctypes.CDLL(os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../build/python/libfuselab.so"))
class Arg(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("data", ctypes.c_void_p), ("device", ctypes.c_int32), ("ndim", ctypes.c_int32),
                ("shape", ctypes.POINTER(ctypes.c_int64)), ("strides", ctypes.POINTER(ctypes.c_int64)),
                ("type_code", ctypes.c_int32), ("bits", ctypes.c_int32)]
lib.fuselab_choose.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_int, ctypes.POINTER(Arg), ctypes.c_int,
                               ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t]
out = ctypes.create_string_buffer(4096); err = ctypes.create_string_buffer(4096)
keep = []
def args_for(m, n):
    a = []
    for name in (b"x", b"out"):
        arr = np.zeros((m, n), np.float32); keep.append(arr)
        shape = (ctypes.c_int64 * 2)(m, n); strides = (ctypes.c_int64 * 2)(n, 1); keep.extend([shape, strides])
        a.append(Arg(name, arr.ctypes.data, 0, 2, shape, strides, 2, 32))
    return (Arg * 2)(*a)
ts = []
for i, n in enumerate(range(1001, 1001 + 40 * 37, 37)):
    a = args_for(3, n)
    t0 = time.perf_counter()
    rc = lib.fuselab_choose(b"softmax", b"cpu", 2, a, 0, out, 4096, err, 4096)
    ts.append((time.perf_counter() - t0) * 1e6)
    assert rc == 0, err.value
t0 = time.perf_counter()
for _ in range(1000): lib.fuselab_choose(b"softmax", b"cpu", 2, a, 0, out, 4096, err, 4096)
again = (time.perf_counter() - t0) * 1e3
print("first call in the process (parses the tables): %.0f us" % ts[0])
print("new shapes after it: median %.1f us, max %.1f us (n=%d)" % (np.median(ts[1:]), max(ts[1:]), len(ts) - 1))
print("the same shape again: %.1f us a call" % again)
print(out.value.decode()[:200])
