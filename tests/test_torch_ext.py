#!/usr/bin/env python3
"""The torch ops' C++ kernels (python/fuselab/_torch_ops.cpp, issue 28), on CPU tensors and, where
a GPU is usable, on CUDA tensors:

- they are built here (torch and a compiler are, after `./fuselab test`'s set-up): BACKEND is
  "c++", unless FUSELAB_TORCH_EXT=0 asks for the Python kernels;
- a call of the common kind runs without its Python twin (torch_ops.TWIN_CALLS does not move),
  and gives what torch gives: variant ops, pipeline ops (whose second call at a shape takes the
  decision the first made), rows of any leading shape in each storage type, non-contiguous
  leading dimensions;
- every other call goes to the twin and keeps its words: an empty batch, a type that disagrees
  (naming the argument), shapes that disagree;
- fuselab.kernel on torch tensors goes through the same C++ entry, outputs given (the very
  tensors, poisoned first) or allocated; its __call__ hands the keyword dict to the entry's
  CPython function, which allocates the outputs left out and declines (running nothing)
  whatever the Python path must check: a missing input, an unknown argument, a non-tensor, a
  stream that is no int, a row pipeline's x of [*, N]; from 8 threads at once;
- 8 threads at once (on CUDA each on a stream of its own), and the stream the C++ kernels run on
  is torch's current one;
- the fallback: a child process with FUSELAB_TORCH_EXT=0 warns once, saying why, and passes
  test_torch.py's custom-op tests (eager, torch.compile(fullgraph=True), no backward, empty
  inputs; CUDA graphs where a GPU is usable) through the Python kernels.

    python3 tests/test_torch_ext.py

Fresh random inputs each run (FUSELAB_TEST_SEED to repeat one); the last line is `N passed, N
failed, N skipped`. Skips everything without PyTorch (exit 77), the CUDA part without a GPU that
both PyTorch and fuselab can use (a failure under FUSELAB_REQUIRE_CUDA=1).
"""
import os
import subprocess
import sys
import threading
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))
sys.path.insert(0, HERE)
import fuselab  # noqa: E402
import harness  # noqa: E402

try:
    import torch
    import torch.nn.functional as F
    import fuselab.torch_ops as T
    from fuselab import _kernel
    NO_TORCH = None
except ImportError as e:
    torch = T = None
    NO_TORCH = f"PyTorch is not installed here ({e})"

SEED = int(os.environ.get("FUSELAB_TEST_SEED", int.from_bytes(os.urandom(4), "little")))
WANT_FALLBACK = os.environ.get("FUSELAB_TORCH_EXT") == "0"
TYPES = ("float32", "bfloat16", "float16")


def cuda_unusable():
    return NO_TORCH or harness.torch_cuda_unusable(torch, fuselab)


class Base(unittest.TestCase):
    device = "cpu"

    @classmethod
    def setUpClass(cls):
        if NO_TORCH:
            raise unittest.SkipTest(NO_TORCH)
        if T.BACKEND != "c++":
            raise unittest.SkipTest(f"the C++ kernels are not in use: {T.FALLBACK_REASON}")

    def setUp(self):
        self.gen = torch.Generator(device=self.device).manual_seed(SEED)

    def rand(self, *shape, dtype=None):  # float32; not a default read at import (no torch)
        x = torch.rand(*shape, generator=self.gen, device=self.device) * 8 - 4
        return x.to(dtype or torch.float32)

    def built(self, pipeline, dtype):
        target = "cuda" if self.device == "cuda" else "cpu"
        return any((v["pipeline"], v["target"], v["dtype"]) == (pipeline, target, dtype)
                   for v in fuselab.variants())

    def close(self, got, want, what, tol=2e-5):
        self.assertEqual(got.shape, want.shape, what)
        self.assertEqual(got.device.type, self.device, what)
        tol = tol if got.dtype == torch.float32 else 2e-2
        diff = (got.double() - want.double()).abs().max().item()
        self.assertLessEqual(diff, tol * (1 + want.double().abs().max().item()),
                             f"{what}: max |diff| {diff} (seed {SEED})")

    def assert_fast(self, fn, what):
        """fn() runs without the Python twin; returns what it returned."""
        before = T.TWIN_CALLS[0]
        out = fn()
        self.assertEqual(T.TWIN_CALLS[0], before, f"{what}: the call went to the Python twin")
        return out

    def assert_twin(self, fn, what):
        before = T.TWIN_CALLS[0]
        try:
            return fn()
        finally:
            self.assertGreater(T.TWIN_CALLS[0], before, f"{what}: the twin did not take it")


class Checks:
    """The cases, for CPU and CUDA tensors alike."""

    def test_variant_ops_take_the_fast_path(self):
        t = "cuda" if self.device == "cuda" else "cpu"
        add = getattr(torch.ops.fuselab, f"add_relu__fused__{t}")
        a, b = self.rand(4099), self.rand(4099)
        y = self.assert_fast(lambda: add(a, b), "add_relu__fused")
        self.close(y, torch.relu(a + b), "add_relu__fused")
        for dtype in TYPES:
            if not self.built("softmax", dtype):
                continue
            name = "softmax__block_row__" + t + ("" if dtype == "float32" else f"__{dtype}")
            x = self.rand(3, 5, 1021, dtype=getattr(torch, dtype))
            y = self.assert_fast(lambda: getattr(torch.ops.fuselab, name)(x), name)
            self.assertEqual(y.dtype, x.dtype)
            self.close(y, torch.softmax(x.double(), -1), name)

    def test_pipeline_ops_keep_their_decision(self):
        for dtype in TYPES:
            if not self.built("layernorm", dtype):
                continue
            dt = getattr(torch, dtype)
            n = 777 + 2 * len(dtype)  # a shape no other test decided
            x, w, b = self.rand(2, 3, n, dtype=dt), self.rand(n, dtype=dt), self.rand(n, dtype=dt)
            want = F.layer_norm(x.double(), (n,), w.double(), b.double(), eps=1e-5)
            first = self.assert_twin(lambda: torch.ops.fuselab.layernorm(x, w, b), "first call")
            chosen = T.chosen("layernorm", self.device)
            again = self.assert_fast(lambda: torch.ops.fuselab.layernorm(x, w, b), "second call")
            self.assertEqual(T.chosen("layernorm", self.device), chosen)
            for y in (first, again):
                self.assertEqual(y.dtype, dt)
                self.close(y, want, f"layernorm {dtype}", tol=1e-4)
            self.assertNotEqual(again.data_ptr(), first.data_ptr())
        a, b = self.rand(3001), self.rand(3001)
        torch.ops.fuselab.add_relu(a, b)
        y = self.assert_fast(lambda: torch.ops.fuselab.add_relu(a, b), "add_relu")
        self.close(y, torch.relu(a + b), "add_relu")

    def test_rows_of_any_leading_shape(self):
        for dtype in TYPES:
            if not self.built("rmsnorm_residual", dtype):
                continue
            dt = getattr(torch, dtype)
            # the leading dimensions transposed: not viewable as rows, so copied (reshape)
            x = self.rand(4, 3, 515, dtype=dt).transpose(0, 1)
            r, w = self.rand(3, 4, 515, dtype=dt), self.rand(515, dtype=dt)
            torch.ops.fuselab.rmsnorm_residual(x, r, w)  # decides
            out, h = self.assert_fast(lambda: torch.ops.fuselab.rmsnorm_residual(x, r, w),
                                      f"rmsnorm_residual {dtype}")
            hw = x.double() + r.double()
            want = hw / torch.sqrt((hw * hw).mean(-1, keepdim=True) + 1e-6) * w.double()
            self.close(h, hw, f"h {dtype}")
            self.close(out, want, f"out {dtype}", tol=1e-4)
            self.assertEqual(tuple(out.shape), (3, 4, 515))

    def test_other_calls_go_to_the_twin_and_keep_their_words(self):
        empty = self.assert_twin(lambda: torch.ops.fuselab.softmax(self.rand(0, 7)), "empty")
        self.assertEqual(tuple(empty.shape), (0, 7))
        if self.built("layernorm", "bfloat16"):
            x = self.rand(2, 64, dtype=torch.bfloat16)
            w, b = self.rand(64), self.rand(64)
            with self.assertRaises(fuselab.Error) as e:
                self.assert_twin(lambda: torch.ops.fuselab.layernorm(x, w, b), "types")
            self.assertIn("input 'w' has type float32", str(e.exception))
        with self.assertRaises(fuselab.Error) as e:
            torch.ops.fuselab.add_relu(self.rand(4096), self.rand(5))
        self.assertIn("disagree", str(e.exception))
        with self.assertRaises(fuselab.Error) as e:
            self.assert_twin(lambda: torch.ops.fuselab.softmax(self.rand(2, 3, 64)[0, 0, 0]),
                             "rank 0")
        self.assertIn("rank 0", str(e.exception))

    def test_kernel_on_tensors_goes_through_the_cpp_entry(self):
        t = "cuda" if self.device == "cuda" else "cpu"
        k = fuselab.kernel("add_relu", "fused", t)
        a, b = self.rand(1021), self.rand(1021)
        k(a=a, b=b)  # the first call with a tensor loads the entry
        self.assertIsNotNone(_kernel._tensor_invoke())
        out = torch.full_like(a, float("nan"))
        got = k(a=a, b=b, out=out)
        self.assertIs(got, out)
        self.close(out, torch.relu(a + b), "kernel(out=)")
        self.close(k(a=a, b=b), torch.relu(a + b), "kernel()")
        with self.assertRaises(fuselab.Error) as e:
            k(a=a, b=self.rand(7), out=out)
        self.assertIn("disagree", str(e.exception))
        p = fuselab.kernel("softmax", target=t)
        x, y = self.rand(4, 1024), torch.full((4, 1024), float("nan"), device=self.device)
        for _ in range(2):  # the second through the decision the first kept
            y.fill_(float("nan"))
            self.assertIs(p(x=x, out=y), y)
            self.close(y, torch.softmax(x.double(), -1), "kernel(softmax)")
        y.fill_(float("nan"))  # that decision, run by the C++ entry alone
        self.assertGreaterEqual(_kernel._TENSOR_EXT[3](p._table, [x, y], -1), 0)
        self.close(y, torch.softmax(x.double(), -1), "the C++ entry's decision")

    def test_kernel_call_takes_the_keyword_entry_and_declines_the_rest(self):
        """fuselab.kernel's __call__ hands its keyword dict to the C++ entry's CPython function
        (_torch_ops.cpp: call, call_decided) once a tensor call has loaded it; whatever that
        declines takes the Python path with its checks and words."""
        t = "cuda" if self.device == "cuda" else "cpu"
        py = fuselab._torch_ext.PY_ENTRY[0]
        if py is None:
            self.skipTest("the C++ entry was built without Python's headers: the ops serve")
        k = fuselab.kernel("add_relu", "fused", t)
        a, b = self.rand(2053), self.rand(2053)
        want = torch.relu(a + b)
        for _ in range(2):  # the first with a tensor describes it; then the entry is named
            k(a=a, b=b)
        self.assertIsNotNone(k._fast)
        out = torch.full_like(a, float("nan"))
        self.assertIs(k(a=a, b=b, out=out), out)
        self.close(out, want, "kernel(out=) by the keyword entry")
        self.close(k(a=a, b=b), want, "kernel(), output allocated")
        out.fill_(float("nan"))
        self.assertIs(k(a=a, b=b, out=out, stream=0 if t == "cpu" else None), out)
        self.close(out, want, "kernel(stream=)")
        with self.assertRaises(fuselab.Error) as e:
            k(a=a, b=b, out=out, bias=a)
        self.assertIn("unknown argument 'bias'", str(e.exception))
        with self.assertRaises(fuselab.Error) as e:
            k(a=a, out=out)
        self.assertIn("missing input 'b'", str(e.exception))
        with self.assertRaises(fuselab.Error) as e:
            k(a=a, b=b[:7], out=out)
        self.assertIn("disagree", str(e.exception))
        # a strided innermost dimension: declined by the entry, refused by the runtime in words
        with self.assertRaises(fuselab.Error):
            k(a=self.rand(4106)[::2], b=b, out=out)
        if t == "cpu":  # numpy arrays through the same kernel: the C ABI, as before
            an, bn = a.numpy(), b.numpy()
            on = k(a=an, b=bn)
            self.assertIsInstance(on, type(an))
            self.close(torch.from_numpy(on), want, "numpy through a kernel tensors used")
        # the entry's own contract: anything but exact tensors, every input and no other key, and
        # an int stream declines (None, False), having run nothing; outputs left out or None are
        # allocated there
        names = k._names
        out.fill_(float("nan"))
        for kw, stream in (({"a": a, "b": b, "out": out, "x": a}, -1), ({"a": a, "out": out}, -1),
                           ({"a": a, "b": b.numpy() if t == "cpu" else [b], "out": out}, -1),
                           ({"a": a, "b": b, "out": out}, "stream")):
            self.assertIsNone(py.call(k._index, kw, names, stream), f"{list(kw)} {stream}")
        self.assertFalse(py.invoke(k._index, [a, b, torch.nn.Parameter(out)], -1))
        self.assertTrue(torch.isnan(out).all(), "a declined call wrote its output")
        self.assertIs(py.call(k._index, {"b": b, "out": out, "a": a}, names, -1), out)
        self.close(out, want, "the entry, keywords in another order")
        for kw in ({"a": a, "b": b}, {"a": a, "b": b, "out": None}):
            got = py.call(k._index, kw, names, -1)
            self.assertIsNot(got, out)
            self.assertEqual((got.dtype, got.device), (a.dtype, a.device))
            self.close(got, want, "the entry, its output allocated")
        # a row variant: x of [*, N] is declined there and flattened by the Python path
        s = fuselab.kernel("softmax", "block_row", t)
        x = self.rand(3, 5, 1027)
        for _ in range(3):
            y = s(x=x)
            self.assertEqual(tuple(y.shape), (3, 5, 1027))
            self.close(y, torch.softmax(x.double(), -1), "softmax rows of [*, N]")
        y2 = torch.full((15, 1027), float("nan"), device=self.device)
        self.assertIs(s(x=x.reshape(15, 1027), out=y2), y2)
        self.close(y2, torch.softmax(x.reshape(15, 1027).double(), -1), "softmax [M, N]")
        # a pipeline: its decisions by the keyword entry, a new shape by the Python path
        p = fuselab.kernel("softmax", target=t)
        for m in (4, 6, 4):
            x, y = self.rand(m, 1031), torch.full((m, 1031), float("nan"), device=self.device)
            for _ in range(2):
                y.fill_(float("nan"))
                self.assertIs(p(x=x, out=y), y)
                self.close(y, torch.softmax(x.double(), -1), f"pipeline softmax [{m}, 1031]")
                self.assertIsNotNone(p.chosen)
        x3 = self.rand(2, 3, 1031)
        self.close(p(x=x3), torch.softmax(x3.double(), -1), "pipeline softmax [2, 3, 1031]")
        # outputs the entry allocates: a shape of the pipeline's rule, and two outputs
        c = fuselab.kernel("conv_relu_pool", "tiled", t)
        x, w, b = self.rand(3, 34, 66), self.rand(8, 3, 3, 3), self.rand(8)
        want = k_out = None
        for _ in range(3):
            k_out = c(input=x, weights=w, bias=b)
            self.assertEqual(tuple(k_out.shape),
                             c.output_shapes(input=x.shape, weights=w.shape, bias=b.shape)["out"])
            want = torch.full_like(k_out, float("nan"))
            c(input=x, weights=w, bias=b, out=want)
            self.assertTrue(torch.equal(k_out, want), "conv_relu_pool: allocated and given differ")
        r = fuselab.kernel("rmsnorm_residual", target=t)
        x, res, w = self.rand(4, 515), self.rand(4, 515), self.rand(515)
        for _ in range(3):
            out, h = r(x=x, residual=res, w=w)
            hw = x.double() + res.double()
            self.close(h, hw, "rmsnorm_residual h, allocated")
            self.close(out, hw / torch.sqrt((hw * hw).mean(-1, keepdim=True) + 1e-6) * w.double(),
                       "rmsnorm_residual out, allocated", tol=1e-4)
        given = (torch.empty_like(x), torch.empty_like(x))
        got = r(x=x, residual=res, w=w, out=given[0], h=given[1])
        self.assertEqual(type(got), tuple)
        self.assertTrue(got[0] is given[0] and got[1] is given[1])
        self.assertEqual(r.chosen["variant"].split("/")[0], "rmsnorm_residual")

    def test_kernel_from_eight_threads(self):
        t = "cuda" if self.device == "cuda" else "cpu"
        k = fuselab.kernel("add_relu", "fused", t)
        p = fuselab.kernel("add_relu", target=t)
        failures = []
        cuda = self.device == "cuda"

        def work(i):
            try:
                ctx = torch.cuda.stream(torch.cuda.Stream()) if cuda else _Null()
                with ctx:
                    for j in range(40):
                        n = 300 + 29 * ((i + j) % 4)
                        a, b = self.rand(n), self.rand(n)
                        out = torch.full_like(a, float("nan"))
                        got = (k if j % 2 else p)(a=a, b=b, out=out)
                        if cuda:
                            torch.cuda.current_stream().synchronize()
                        if got is not out or not torch.allclose(out, torch.relu(a + b)):
                            failures.append(f"thread {i} call {j}: wrong at n={n}")
            except Exception as e:
                failures.append(f"thread {i}: {type(e).__name__}: {e}")

        pool = [threading.Thread(target=work, args=(i,)) for i in range(8)]
        for th in pool:
            th.start()
        for th in pool:
            th.join(timeout=300)
        self.assertFalse(any(th.is_alive() for th in pool), "a thread hung")
        self.assertEqual(failures, [])

    def test_eight_threads(self):
        failures = []
        cuda = self.device == "cuda"

        def work(i):
            try:
                ctx = torch.cuda.stream(torch.cuda.Stream()) if cuda else _Null()
                with ctx:
                    for j in range(30):
                        n = 200 + 37 * ((i + j) % 5)
                        x = self.rand(2, n)
                        a, b = self.rand(n), self.rand(n)
                        y = torch.ops.fuselab.softmax(x)
                        z = torch.ops.fuselab.add_relu(a, b)
                        if cuda:
                            torch.cuda.current_stream().synchronize()
                        for got, want in ((y, torch.softmax(x, -1)), (z, torch.relu(a + b))):
                            if not torch.allclose(got, want, rtol=1e-4, atol=1e-6):
                                failures.append(f"thread {i} call {j}: wrong at n={n}")
            except Exception as e:
                failures.append(f"thread {i}: {type(e).__name__}: {e}")

        pool = [threading.Thread(target=work, args=(i,)) for i in range(8)]
        for th in pool:
            th.start()
        for th in pool:
            th.join(timeout=300)
        self.assertFalse(any(th.is_alive() for th in pool), "a thread hung")
        self.assertEqual(failures, [])


class _Null:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


class Cpu(Checks, Base):
    pass


class Cuda(Checks, Base):
    device = "cuda"

    @classmethod
    def setUpClass(cls):
        why = cuda_unusable()
        if why:
            raise harness.cuda_skip(why)
        super().setUpClass()

    def test_runs_on_torchs_current_stream(self):
        x = self.rand(8)
        s = torch.cuda.Stream()
        with torch.cuda.stream(s):
            self.assertEqual(torch.ops.fuselab_ext.current_stream(x), s.cuda_stream)
        self.assertEqual(torch.ops.fuselab_ext.current_stream(x),
                         torch.cuda.current_stream().cuda_stream)


class Backend(unittest.TestCase):
    def setUp(self):
        if NO_TORCH:
            self.skipTest(NO_TORCH)

    def test_the_cpp_kernels_are_built_here(self):
        if WANT_FALLBACK:
            self.assertEqual(T.BACKEND, "python")
            self.assertIn("FUSELAB_TORCH_EXT=0", T.FALLBACK_REASON)
        else:
            self.assertEqual(T.BACKEND, "c++", T.FALLBACK_REASON)

    def test_the_fallback_in_a_child_process(self):
        env = dict(os.environ, FUSELAB_TORCH_EXT="0", FUSELAB_TEST_SEED=str(SEED))
        probe = ("import warnings, sys\n"
                 "with warnings.catch_warnings(record=True) as w:\n"
                 "    warnings.simplefilter('always')\n"
                 "    import fuselab.torch_ops as T\n"
                 "mine = [str(x.message) for x in w if 'fuselab' in str(x.message)]\n"
                 "print(T.BACKEND, len(mine), mine)\n")
        r = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True,
                           cwd=os.path.join(HERE, "..", "python"), timeout=600)
        self.assertEqual(r.returncode, 0, r.stderr[-3000:])
        self.assertTrue(r.stdout.startswith("python 1 "), r.stdout)
        self.assertIn("FUSELAB_TORCH_EXT=0", r.stdout)
        tests = ["Cpu.test_custom_ops", "Cpu.test_no_backward", "Cpu.test_empty_inputs",
                 "Cpu.test_errors", "Cuda.test_custom_ops", "Cuda.test_no_backward",
                 "Cuda.test_empty_inputs", "Cuda.test_side_stream", "CudaGraphs"]
        r = subprocess.run([sys.executable, os.path.join(HERE, "test_torch.py"), *tests],
                           env=env, capture_output=True, text=True, timeout=1200)
        tail = (r.stdout + r.stderr)[-4000:]
        self.assertIn(r.returncode, (0, 77) if cuda_unusable() else (0,), tail)
        self.assertRegex(tail, r"\n[1-9]\d* passed, 0 failed", tail)


def main():
    print(f"test_torch_ext: seed {SEED}; " + (NO_TORCH or f"torch {torch.__version__}, ops in "
          f"{T.BACKEND}" + (f" ({T.FALLBACK_REASON})" if T.FALLBACK_REASON else "")), flush=True)
    return harness.main(argv=sys.argv)


if __name__ == "__main__":
    sys.exit(main())
