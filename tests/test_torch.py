#!/usr/bin/env python3
"""The Python package on PyTorch tensors (issue 12.6): CPU tensors through every CPU variant, and
on a CUDA device every CUDA variant on CUDA tensors, zero-copy (outputs given by name are the
very tensors written, strided views are read in place), torch's current stream (a side stream,
several streams and threads at once, no host wait), the caching allocator, a captured CUDA graph
replayed on new data, and the custom operators (torch.ops.fuselab.*, inside
torch.compile(fullgraph=True) too): inference-only, a backward pass through one raising a
RuntimeError that names it; inputs with no element give empty outputs without running anything.
Results against tests/reference.py (numpy float64).

    python3 tests/test_torch.py             # FUSELAB_LIBRARY=PATH/libfuselab.so if not beside the package

On a machine without a GPU it runs the CPU part: every CPU variant on CPU tensors and through its
custom operator torch.ops.fuselab.<pipeline>__<schedule>__cpu, DLPack objects, and
torch.compile(fullgraph=True) over custom operators on CPU tensors. Skips everything, saying why,
without PyTorch (exit 77); skips the CUDA part, saying why, without a CUDA device that both
PyTorch and fuselab can use, which is a failure under FUSELAB_REQUIRE_CUDA=1 (tests/harness.py).
Outputs are compared with reference.check (every element, and the norm). The CUDA-graph tests
run in a child process of their own (Halide's cache of device allocations must be short when a
graph is captured: see CudaGraphsChild). The last line is `N passed, N failed, N skipped`.
"""
import os
import re
import subprocess
import sys
import threading
import time
import unittest

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))
sys.path.insert(0, HERE)
import fuselab  # noqa: E402
import harness  # noqa: E402
import reference  # noqa: E402

try:
    import torch
    import torch.nn.functional as F
    NO_TORCH = None
except ImportError as e:  # the reason is printed, and every test skips with it
    torch = None
    NO_TORCH = f"PyTorch is not installed here ({e})"

SEED = int(os.environ.get("FUSELAB_TEST_SEED", int.from_bytes(os.urandom(4), "little")))
CHILD_ENV = "FUSELAB_TEST_TORCH_GRAPHS_CHILD"
# Small odd sizes that straddle tiles, per size format (autoscheduled variants may refuse them).
SIZES = {"N": [(1021,), (65537,)], "WxH": [(37, 19), (130, 67)],
         "WxHxCxK": [(37, 19, 3, 16), (31, 30, 5, 17)]}
SPECIAL_SIZES = [(7,), (1021,)]  # special inputs (reference.py) through the custom operators
SLEEP_CYCLES = 10 ** 9  # torch.cuda._sleep: about 0.5 s at the H200's ~2 GHz


def cuda_unusable():
    """Why the CUDA part cannot run here, or None."""
    return NO_TORCH or harness.torch_cuda_unusable(torch, fuselab)


def workload(pipeline):
    return next(w for w in fuselab.workloads() if w["pipeline"] == pipeline)


def default_size(v):
    w = workload(v["pipeline"])
    return reference.parse_size(v["pipeline"],
                                (w["cuda_sizes"] if v["target"] == "cuda" else w["cpu_sizes"])[0])


def as_tuple(x):
    return x if isinstance(x, tuple) else (x,)


def torch_inputs(p, rng, size, device):
    """(numpy inputs, the same as torch tensors on `device`) for pipeline p at `size`."""
    host = p.inputs(rng, size)
    return host, {n: torch.from_numpy(a).to(device) for n, a in host.items()}


def has_variant(pipeline, schedule, target):
    return any((v["pipeline"], v["schedule"], v["target"]) == (pipeline, schedule, target)
               for v in fuselab.variants())


class TorchTestCase(unittest.TestCase):
    device = "cpu"

    @classmethod
    def setUpClass(cls):
        if NO_TORCH:
            raise unittest.SkipTest(NO_TORCH)

    def setUp(self):
        self.rng = np.random.default_rng(SEED)

    def assert_matches(self, pipeline, size, got, ref, what=""):
        """got: torch tensors (any device) by output name; ref: float64 numpy by name; compared
        by reference.check at `size` (every element within its bound, and the norm)."""
        for o, r in ref.items():
            g = got[o]
            self.assertIsInstance(g, torch.Tensor, what)
            self.assertEqual(g.dtype, torch.float32, what)
            ok, msg = reference.check(pipeline, g.detach().cpu().numpy(), r, size, o)
            self.assertTrue(ok, f"{what}: {msg}")

    def refused(self, v, size, error):
        """A fuselab.Error from variant record v at size: fine (True) when it is the refusal of
        v's declared limit, away from its default size; the test fails otherwise."""
        limit, _ = harness.variant_limit(v)
        problem = harness.refusal_problem(v["name"], limit, str(error), size == default_size(v))
        if problem:
            self.fail(problem)
        return True

    def assert_error(self, fragment, fn, *args, **kwargs):
        with self.assertRaises(fuselab.Error) as e:
            fn(*args, **kwargs)
        self.assertIn(fragment, str(e.exception))
        return str(e.exception)

    def every_variant(self, target):
        """Every variant of `target` at SIZES: outputs returned (new tensors on the inputs'
        device) and given by name (the same tensors, written in place), against float64."""
        ran = refused = 0
        for v in fuselab.variants():
            if v["target"] != target or v["pipeline"] not in reference.PIPELINES:
                continue
            if v["pipeline"] in reference.ROW_PIPELINES:
                continue  # in their storage types: tests/test_rows.py
            p = reference.PIPELINES[v["pipeline"]]
            k = fuselab.kernel(v["pipeline"], v["schedule"], target)
            for size in SIZES[workload(v["pipeline"])["size_format"]]:
                with self.subTest(variant=k.name, size=size, seed=SEED):
                    host, inputs = torch_inputs(p, self.rng, size, self.device)
                    ref = p.reference(host)
                    try:
                        got = as_tuple(k(**inputs))
                    except fuselab.Error as e:
                        refused += self.refused(v, size, e)
                        continue
                    for g in got:
                        self.assertEqual(g.device, inputs[k.inputs[0]].device)
                    self.assert_matches(v["pipeline"], size, dict(zip(k.outputs, got)), ref,
                                        "returned")
                    given = {o: torch.full(ref[o].shape, float("nan"), device=self.device)
                             for o in k.outputs}
                    ptrs = {o: t.data_ptr() for o, t in given.items()}
                    back = as_tuple(k(**inputs, **given))
                    for o, b in zip(k.outputs, back):
                        self.assertIs(b, given[o])  # the very tensor given, written in place
                        self.assertEqual(b.data_ptr(), ptrs[o])
                    self.assert_matches(v["pipeline"], size, given, ref, "given by name")
                    ran += 1
        return ran, refused


# ---------------------------------------------------------------- CPU tensors
class Cpu(TorchTestCase):
    def test_every_cpu_variant_on_cpu_tensors(self):
        ran, refused = self.every_variant("cpu")
        print(f"\n  CPU variants on CPU tensors: {ran} ran, {refused} refused (autoscheduled)",
              file=sys.stderr)
        self.assertGreater(ran, 30)

    def test_views_are_read_in_place_and_inner_strides_refused(self):
        k = fuselab.kernel("conv_relu_pool", "tiled", "cpu")
        p = reference.PIPELINES["conv_relu_pool"]
        big = torch.from_numpy(reference.uniform(self.rng, (3, 46, 37)))
        x = big[:, ::2, :]  # every other row: the inner dimension stays dense
        w = torch.from_numpy(reference.uniform(self.rng, (16, 3, 3, 3)))
        b = torch.from_numpy(reference.uniform(self.rng, (16,)))
        out = k(input=x, weights=w, bias=b)
        ref = p.reference({"input": x.contiguous().numpy(), "weights": w.numpy(), "bias": b.numpy()})
        self.assert_matches("conv_relu_pool", (37, 23, 3, 16), {"out": out}, ref)
        a = torch.from_numpy(reference.uniform(self.rng, (2002,)))
        self.assert_error("add_relu/fused/cpu: input 'a' has a layout this variant cannot take",
                          fuselab.kernel("add_relu", "fused", "cpu"), a=a[::2],
                          b=a[::2].contiguous())

    def test_errors(self):
        k = fuselab.kernel("add_relu", "fused", "cpu")
        a = torch.ones(64)
        self.assert_error("add_relu/fused/cpu: input 'a' has type float64, expected float32", k,
                          a=a.double(), b=a)
        self.assert_error("add_relu/fused/cpu: argument 'a' is on meta", k,
                          a=torch.empty(64, device="meta"), b=a)
        self.assert_error("add_relu/fused/cpu: output 'out' shares memory with input 'a'", k,
                          a=a, b=a.clone(), out=a)

    def test_custom_ops(self):
        custom_ops(self, "cpu")

    def test_no_backward(self):
        no_backward(self, "cpu")

    def test_empty_inputs(self):
        empty_inputs(self, "cpu")

    def test_every_cpu_variant_through_its_custom_op(self):
        """torch.ops.fuselab.<pipeline>__<schedule>__cpu for every CPU variant, on CPU tensors,
        and special inputs (+-inf, 1e30, saturating tanh and sigmoid) where a pipeline has them."""
        import fuselab.torch_ops
        ran = refused = 0
        for v in fuselab.variants():
            if v["target"] != "cpu" or v["pipeline"] not in reference.PIPELINES:
                continue
            if v["pipeline"] in reference.ROW_PIPELINES:
                continue  # in their storage types: tests/test_rows.py
            p = reference.PIPELINES[v["pipeline"]]
            op = getattr(torch.ops.fuselab, f"{v['pipeline']}__{v['schedule']}__cpu")
            self.assertIs(fuselab.torch_ops.op(v["pipeline"], v["schedule"], "cpu"), op)
            k = fuselab.kernel(v["pipeline"], v["schedule"], "cpu")
            limit, _ = harness.variant_limit(v)
            cases = [(SIZES[p.size_format][0], False)]
            if limit is not None:
                cases.append((default_size(v), False))  # the size it must run
            if p.has_special:
                cases += [(s, True) for s in SPECIAL_SIZES]
            for size, special in cases:
                with self.subTest(op=v["name"], size=size, special=special, seed=SEED):
                    host = p.special_inputs(self.rng, size) if special else p.inputs(self.rng, size)
                    args = [torch.from_numpy(host[n]) for n in k.inputs]
                    try:
                        got = as_tuple(op(*args))
                    except fuselab.Error as e:
                        refused += self.refused(v, size, e)
                        continue
                    self.assertEqual(len(got), len(k.outputs))
                    self.assert_matches(v["pipeline"], size, dict(zip(k.outputs, got)),
                                        p.reference(host), "custom op")
                    ran += 1
        print(f"\n  CPU custom ops: {ran} ran, {refused} refused (declared limits)", file=sys.stderr)
        self.assertGreater(ran, 30)

    def test_dlpack_objects(self):
        """Objects that expose only __dlpack__ / __dlpack_device__ (over CPU tensors): inputs read
        through DLPack (a strided view too), an output written in place through it; with nothing
        to allocate an output like, an error saying so."""
        class Only:
            def __init__(self, t):
                self._t = t

            def __dlpack__(self, stream=None):
                return self._t.__dlpack__()

            def __dlpack_device__(self):
                return self._t.__dlpack_device__()

        pa, pc = reference.PIPELINES["add_relu"], reference.PIPELINES["conv_relu_pool"]
        ka = fuselab.kernel("add_relu", "fused", "cpu")
        host = pa.special_inputs(self.rng, (1021,))
        a, b = (torch.from_numpy(host[n]) for n in ("a", "b"))
        out = torch.full((1021,), float("nan"))
        self.assertIs(ka(a=Only(a), b=Only(b), out=out), out)
        self.assert_matches("add_relu", (1021,), {"out": out}, pa.reference(host), "DLPack in")
        out2 = torch.full((1021,), float("nan"))
        ka(a=a, b=b, out=Only(out2))  # the output through DLPack: the tensor's memory written
        self.assertTrue(torch.equal(out2, out))
        kc = fuselab.kernel("conv_relu_pool", "tiled", "cpu")
        big = torch.from_numpy(reference.uniform(self.rng, (3, 46, 37)))
        x = big[:, ::2, :]  # outer strides through DLPack
        w = torch.from_numpy(reference.uniform(self.rng, (16, 3, 3, 3)))
        bias = torch.from_numpy(reference.uniform(self.rng, (16,)))
        y = torch.full((16, 11, 18), float("nan"))
        kc(input=Only(x), weights=Only(w), bias=Only(bias), out=y)
        ref = pc.reference({"input": x.contiguous().numpy(), "weights": w.numpy(),
                            "bias": bias.numpy()})
        self.assert_matches("conv_relu_pool", (37, 23, 3, 16), {"out": y}, ref, "DLPack view")
        # torch.from_dlpack of numpy arrays: the same memory, through torch's side of DLPack.
        an, bn = (reference.uniform(self.rng, (999,)) for _ in range(2))
        z = ka(a=torch.from_dlpack(an), b=torch.from_dlpack(bn))
        self.assertIsInstance(z, torch.Tensor)
        self.assertTrue(np.array_equal(z.numpy(), np.maximum(0, an + bn)))
        self.assert_error("cannot allocate output 'out'", ka, a=Only(a), b=Only(b))


def custom_ops(test, device):
    """torch.ops.fuselab.* eagerly and inside torch.compile(fullgraph=True)."""
    import fuselab.torch_ops
    target = "cuda" if device == "cuda" else "cpu"
    conv = getattr(torch.ops.fuselab, f"conv_relu_pool__tiled__{target}")
    add = getattr(torch.ops.fuselab, f"add_relu__fused__{target}")
    test.assertIs(fuselab.torch_ops.op("add_relu", "fused", target), add)
    pc, pa = reference.PIPELINES["conv_relu_pool"], reference.PIPELINES["add_relu"]
    hc, ic = torch_inputs(pc, test.rng, (37, 19, 3, 16), device)
    ha, ia = torch_inputs(pa, test.rng, (1021,), device)
    rc, ra = pc.reference(hc)["out"], pa.reference(ha)["out"]
    y = conv(ic["input"], ic["weights"], ic["bias"])
    z = add(ia["a"], ia["b"])
    test.assertEqual((y.device.type, z.device.type), (device, device))
    test.assert_matches("conv_relu_pool", (37, 19, 3, 16), {"out": y}, {"out": rc}, "eager op")
    test.assert_matches("add_relu", (1021,), {"out": z}, {"out": ra}, "eager op")

    # On CUDA, torch ops around the custom ones, so that Inductor generates Triton code beside
    # them. Not on the CPU, where that code is C++ and needs a compiler and headers that a GPU
    # machine may lack (a graph of custom ops alone compiles to Python calls).
    mixed = device == "cuda"

    def f(x, w, b, a1, a2):
        y = conv(x, w, b)
        z = add(a1, a2)
        return (y * 2.0, z + 1.0) if mixed else (y, z)

    torch._dynamo.reset()
    cf = torch.compile(f, fullgraph=True)
    y2, z2 = cf(ic["input"], ic["weights"], ic["bias"], ia["a"], ia["b"])
    scale, shift = (2.0, 1.0) if mixed else (1.0, 0.0)
    # y * 2 doubles the conv's error, within its atol's margin (reference.py); z + 1 adds one
    # float32 rounding, within add_relu's rtol of 2 roundings.
    test.assert_matches("conv_relu_pool", (37, 19, 3, 16), {"out": y2}, {"out": rc * scale},
                        "compiled op")
    test.assert_matches("add_relu", (1021,), {"out": z2}, {"out": ra + shift}, "compiled op")
    torch._dynamo.reset()


def no_backward(test, device):
    """add_relu's pipeline op and variant op, and a conv variant's: with an input requiring grad
    the outputs require grad and a backward pass raises a RuntimeError naming the op, eagerly and
    compiled (fullgraph), leaving no grad; under torch.no_grad() and torch.inference_mode() the
    forward gives what it gives on inputs that do not require grad, no output requiring grad."""
    import fuselab.torch_ops  # noqa: F401
    target = "cuda" if device == "cuda" else "cpu"
    pa, pc = reference.PIPELINES["add_relu"], reference.PIPELINES["conv_relu_pool"]
    _, ia = torch_inputs(pa, test.rng, (1021,), device)
    _, ic = torch_inputs(pc, test.rng, (37, 19, 3, 16), device)
    cases = [("add_relu", [ia["a"], ia["b"]]), (f"add_relu__fused__{target}", [ia["a"], ia["b"]]),
             (f"conv_relu_pool__tiled__{target}", [ic["input"], ic["weights"], ic["bias"]])]
    torch._dynamo.reset()
    for name, args in cases:
        op = getattr(torch.ops.fuselab, name)
        want = op(*args)
        test.assertFalse(want.requires_grad)
        for compiled in (False, True):
            fn = torch.compile(lambda *a, op=op: op(*a), fullgraph=True) if compiled else op
            for i in range(len(args)):
                with test.subTest(op=name, requires_grad=i, compiled=compiled):
                    ins = [a.clone().requires_grad_(j == i) for j, a in enumerate(args)]
                    y = fn(*ins)
                    test.assertTrue(y.requires_grad)
                    test.assertTrue(torch.equal(y.detach(), want))
                    with test.assertRaises(RuntimeError) as e:
                        y.sum().backward()
                    test.assertIn(f"torch.ops.fuselab.{name} has no backward", str(e.exception))
                    test.assertIn("inference-only", str(e.exception))
                    test.assertIsNone(ins[i].grad)
        ins = [a.clone().requires_grad_() for a in args]
        for mode in (torch.no_grad, torch.inference_mode):
            with test.subTest(op=name, mode=mode.__name__):
                with mode():
                    y = op(*ins)
                test.assertFalse(y.requires_grad)
                test.assertTrue(torch.equal(y, want))
    torch._dynamo.reset()


def empty_inputs(test, device):
    """Inputs with no element: add_relu of N = 0 and conv_relu_pool of H = 0 (its output [K, 0,
    W/2]) give empty float32 outputs on the device, through the pipeline ops, the variants' ops
    and fuselab.kernel (outputs allocated, or given); refused where an output would still have
    elements (a conv over zero channels), where the inputs disagree, or of another type."""
    import fuselab.torch_ops  # noqa: F401
    target = "cuda" if device == "cuda" else "cpu"

    def zeros(*shape, dtype=torch.float32):
        return torch.zeros(*shape, dtype=dtype, device=device)

    a = zeros(0)
    conv = (zeros(3, 0, 37), zeros(16, 3, 3, 3), zeros(16))
    calls = [("add_relu op", torch.ops.fuselab.add_relu, (a, a), (0,))]
    for v in fuselab.variants():
        if (v["pipeline"], v["target"]) == ("add_relu", target):
            calls.append((v["name"], getattr(torch.ops.fuselab, f"add_relu__{v['schedule']}__"
                                                                f"{target}"), (a, a), (0,)))
    calls += [("add_relu kernel", lambda a, b: fuselab.kernel("add_relu", target=target)(
                  a=a, b=b), (a, a), (0,)),
              ("add_relu kernel, out given", lambda a, b: fuselab.kernel(
                  "add_relu", "fused", target)(a=a, b=b, out=zeros(0)), (a, a), (0,)),
              ("conv_relu_pool op", torch.ops.fuselab.conv_relu_pool, conv, (16, 0, 18)),
              ("conv_relu_pool tiled op", getattr(torch.ops.fuselab,
                                                  f"conv_relu_pool__tiled__{target}"),
               conv, (16, 0, 18))]
    for what, fn, args, shape in calls:
        with test.subTest(call=what):
            y = fn(*args)
            test.assertEqual((tuple(y.shape), y.dtype, y.device.type),
                             (shape, torch.float32, device))
    k = fuselab.kernel("add_relu", "fused", target)
    refused = {"a conv over zero channels": (torch.ops.fuselab.conv_relu_pool,
                                             (zeros(0, 19, 37), zeros(16, 0, 3, 3), zeros(16))),
               "inputs that disagree": (torch.ops.fuselab.add_relu, (a, zeros(5))),
               "float64": (torch.ops.fuselab.add_relu, (a.double(), a.double())),
               "an output with elements": (lambda a, b: k(a=a, b=b, out=zeros(5)), (a, a))}
    for case, (fn, args) in refused.items():
        with test.subTest(refused=case):
            with test.assertRaises(fuselab.Error):
                fn(*args)


# ---------------------------------------------------------------- CUDA tensors
class CudaTestCase(TorchTestCase):
    device = "cuda"

    @classmethod
    def setUpClass(cls):
        why = cuda_unusable()
        if why:
            raise harness.cuda_skip(why)
        torch.backends.cudnn.allow_tf32 = False
        torch.backends.cuda.matmul.allow_tf32 = False

    def rand(self, *shape):
        return torch.empty(*shape, device="cuda").uniform_(-1.0, 1.0)


class Cuda(CudaTestCase):
    def test_every_cuda_variant_on_cuda_tensors(self):
        ran, refused = self.every_variant("cuda")
        print(f"\n  CUDA variants on CUDA tensors: {ran} ran, {refused} refused (autoscheduled)",
              file=sys.stderr)
        self.assertGreater(ran, 20)

    def test_zero_copy(self):
        k = fuselab.kernel("conv_relu_pool", "tiled", "cuda")
        p = reference.PIPELINES["conv_relu_pool"]
        big = self.rand(3, 46, 37)
        x = big[:, ::2, :]  # a view: every other row, the inner dimension dense
        w, b = self.rand(16, 3, 3, 3), self.rand(16)
        out = torch.full((16, 11, 18), float("nan"), device="cuda")
        ptr = out.data_ptr()
        self.assertIs(k(input=x, weights=w, bias=b, out=out), out)
        self.assertEqual(out.data_ptr(), ptr)
        ref = p.reference({"input": x.cpu().numpy(), "weights": w.cpu().numpy(),
                           "bias": b.cpu().numpy()})
        self.assert_matches("conv_relu_pool", (37, 23, 3, 16), {"out": out}, ref, "strided input")
        # An output that is a row of a bigger tensor: that row written, nothing else.
        ka = fuselab.kernel("add_relu", "fused", "cuda")
        a, bb = self.rand(1024), self.rand(1024)
        base = torch.full((3, 1024), 7.0, device="cuda")
        row = base[1]
        self.assertIs(ka(a=a, b=bb, out=row), row)
        self.assertEqual(row.data_ptr(), base.data_ptr() + 4 * 1024)
        self.assertTrue(torch.equal(base[1], torch.relu(a + bb)))
        self.assertTrue(bool((base[0] == 7.0).all()) and bool((base[2] == 7.0).all()))
        # A row at an offset that is not a multiple of 16 bytes is refused in words (Halide's
        # CUDA kernels use 16-byte vectors: such a view would fault and end the CUDA context).
        odd = torch.full((3, 1001), 7.0, device="cuda")
        self.assert_error("add_relu/fused/cuda: output 'out' starts at a device address that is "
                          "not 16-byte aligned", ka, a=self.rand(1001), b=self.rand(1001),
                          out=odd[1])
        self.assertTrue(bool((odd == 7.0).all()))  # nothing written
        # A strided inner dimension is refused, in words.
        self.assert_error("add_relu/fused/cuda: input 'a' has a layout this variant cannot take",
                          ka, a=self.rand(2002)[::2], b=self.rand(1001))

    def test_host_tensors_on_a_cuda_variant_are_copied(self):
        k = fuselab.kernel("add_relu", "fused", "cuda")
        a, b = torch.rand(999) - 0.5, torch.rand(999) - 0.5
        out = k(a=a, b=b)
        self.assertEqual(out.device.type, "cpu")
        self.assertTrue(torch.equal(out, torch.relu(a + b)))

    def test_errors(self):
        a = self.rand(64)
        msg = self.assert_error("needs host memory", fuselab.kernel("add_relu", "fused", "cpu"),
                                a=a, b=a.clone())
        self.assertIn("add_relu/fused/cpu", msg)
        k = fuselab.kernel("add_relu", "fused", "cuda")
        self.assert_error("add_relu/fused/cuda: input 'a' has type float64, expected float32", k,
                          a=a.double(), b=a)
        if torch.cuda.device_count() > 1:
            self.assert_error("is on cuda:1; fuselab runs on cuda:0", k,
                              a=torch.ones(64, device="cuda:1"), b=a)
        else:
            print("\n  (one CUDA device: the other-device check did not run)", file=sys.stderr)

    def test_side_stream(self):
        """On `with torch.cuda.stream(s)`: the call runs on s (right after s.synchronize())."""
        cases = [("add_relu", "fused", (4099,)), ("pointwise_chain", "unfused", (65537,)),
                 ("conv_relu_pool", "tiled", (37, 19, 3, 16)), ("add_relu", "seed_unfused", (4099,)),
                 ("conv_relu_pool", "hand_const", (37, 19, 3, 16))]
        s = torch.cuda.Stream()
        for pipeline, schedule, size in cases:
            if not has_variant(pipeline, schedule, "cuda"):
                continue
            with self.subTest(variant=f"{pipeline}/{schedule}"):
                p = reference.PIPELINES[pipeline]
                k = fuselab.kernel(pipeline, schedule, "cuda")
                host, inputs = torch_inputs(p, self.rng, size, "cuda")
                s.wait_stream(torch.cuda.current_stream())
                with torch.cuda.stream(s):
                    # Work queued on s before the call: the call must come after it.
                    outs = {o: torch.full(sh, float("nan"), device="cuda")
                            for o, sh in p.output_shapes(size).items()}
                    k(**inputs, **outs)
                s.synchronize()
                self.assert_matches(pipeline, size, outs, p.reference(host))

    def test_the_call_does_not_wait_for_the_stream(self):
        if not hasattr(torch.cuda, "_sleep"):
            self.skipTest("this PyTorch has no torch.cuda._sleep")
        for schedule in ("fused", "seed_fused"):
            if not has_variant("add_relu", schedule, "cuda"):
                continue
            with self.subTest(variant=f"add_relu/{schedule}/cuda"):
                k = fuselab.kernel("add_relu", schedule, "cuda")
                a, b = self.rand(1 << 20), self.rand(1 << 20)
                out = torch.full((1 << 20,), float("nan"), device="cuda")
                k(a=a, b=b, out=out)  # compiled and cached before the timed call
                torch.cuda.synchronize()
                out.fill_(float("nan"))
                s = torch.cuda.Stream()
                s.wait_stream(torch.cuda.current_stream())
                with torch.cuda.stream(s):
                    torch.cuda._sleep(SLEEP_CYCLES)  # s is busy for about half a second
                    t0 = time.perf_counter()
                    k(a=a, b=b, out=out)
                    call_s = time.perf_counter() - t0
                    after = torch.cuda.Event()
                    after.record(s)
                pending = not after.query()
                s.synchronize()
                self.assertTrue(pending, f"the call returned after s's sleep ended ({call_s:.3f} s)")
                self.assertTrue(torch.equal(out, torch.relu(a + b)))

    def test_several_streams_and_threads_under_the_caching_allocator(self):
        """Threads, each on its own stream, allocating and freeing in a loop; each result is
        compared on its stream with PyTorch's own computation of it."""
        calls = [("add_relu", "fused"), ("pointwise_chain", "unfused"), ("conv_relu_pool", "tiled"),
                 ("add_relu", "seed_unfused")]
        calls = [c for c in calls if has_variant(c[0], c[1], "cuda")]
        kernels = {c: fuselab.kernel(c[0], c[1], "cuda") for c in calls}
        for k in kernels.values():  # compile every module once, before the threads
            self.call_and_expect(k, 0)
        torch.cuda.synchronize()
        threads, iterations, failures = 4, 25, []

        def work(t):
            try:
                s = torch.cuda.Stream()
                diffs = []
                with torch.cuda.stream(s):
                    for i in range(iterations):
                        k = kernels[calls[(t + i) % len(calls)]]
                        diffs.append((k.name, self.call_and_expect(k, 1000 + 37 * t + i)))
                s.synchronize()
                for name, (diff, tol) in diffs:
                    if not float(diff) <= tol:
                        failures.append(f"thread {t}: {name}: difference {float(diff):.3g} > {tol}")
            except Exception as e:  # reported below, not lost in the thread
                failures.append(f"thread {t}: {type(e).__name__}: {e}")

        pool = [threading.Thread(target=work, args=(t,)) for t in range(threads)]
        for th in pool:
            th.start()
        for th in pool:
            th.join(timeout=300)
        self.assertFalse(any(th.is_alive() for th in pool), "a thread hung")
        self.assertEqual(failures, [])

    def call_and_expect(self, k, n_extra):
        """One call on fresh tensors of the current stream, and (|k - torch| max, tolerance) as
        a device tensor, PyTorch's own result computed on the same stream. The big tensors are
        freed on return, so the caching allocator hands their memory out again."""
        if k.pipeline == "add_relu":
            a, b = self.rand(4096 + n_extra), self.rand(4096 + n_extra)
            return (k(a=a, b=b) - torch.relu(a + b)).abs().max(), 0.0
        if k.pipeline == "pointwise_chain":
            x = self.rand(65537 + n_extra).double()
            s = torch.relu(x * 1.5 + 0.25) * 0.75 - 0.1
            expect = torch.sigmoid(torch.tanh(s) * 2 + 1) * 3
            return (k(x=x.float()).double() - expect).abs().max(), 1e-4
        x, w, b = self.rand(3, 19 + n_extra % 7, 37), self.rand(16, 3, 3, 3), self.rand(16)
        expect = F.max_pool2d(torch.relu(F.conv2d(x[None].double(), w.double(), b.double(),
                                                  padding=1)), 2)[0]
        return (k(input=x, weights=w, bias=b).double() - expect).abs().max(), 1e-4

    def test_custom_ops(self):
        custom_ops(self, "cuda")

    def test_no_backward(self):
        no_backward(self, "cuda")

    def test_empty_inputs(self):
        empty_inputs(self, "cuda")


class CudaGraphs(CudaTestCase):
    def test_captured_graphs_in_a_fresh_process(self):
        """CudaGraphsChild, in a process of its own."""
        env = dict(os.environ, **{CHILD_ENV: "1", "FUSELAB_TEST_SEED": str(SEED)})
        try:
            r = subprocess.run([sys.executable, os.path.abspath(__file__), "CudaGraphsChild"],
                               env=env, capture_output=True, text=True, timeout=300)
        except subprocess.TimeoutExpired as e:
            self.fail(f"the child timed out: {e}")
        sys.stderr.write("\n  --- CudaGraphsChild ---\n" + "".join(
            "  " + line + "\n" for line in (r.stdout + r.stderr).splitlines()))
        self.assertEqual(r.returncode, 0, "CudaGraphsChild failed (its output is above)")
        m = re.search(r"^(\d+) passed, 0 failed", r.stdout, re.M)
        self.assertTrue(m and int(m.group(1)) >= 2, "CudaGraphsChild ran too little")


class CudaGraphsChild(CudaTestCase):
    """Run only by CudaGraphs, in a fresh process: a capture must not allocate or free device
    memory (cuMemAlloc and cuMemFree invalidate it), and Halide's CUDA runtime frees cached
    allocations beyond the 32 most recent ones whenever it allocates. So each variant is called
    once on the capture stream (its intermediates are then cached for that stream, the cache
    being keyed by stream) while the cache is short, then captured."""

    @classmethod
    def setUpClass(cls):
        if not os.environ.get(CHILD_ENV):
            raise unittest.SkipTest("runs in CudaGraphs' child process")
        super().setUpClass()
        if os.environ.get("FUSELAB_DEVICE_ALLOCATION_REUSE") == "0":
            raise unittest.SkipTest("FUSELAB_DEVICE_ALLOCATION_REUSE=0: Halide allocates on every "
                                    "call, which a CUDA graph capture cannot do")

    def test_graphs_replay_new_data(self):
        s = torch.cuda.Stream()
        for pipeline, schedule, size in [("add_relu", "fused", (4099,)),
                                         ("pointwise_chain", "unfused", (65537,)),
                                         ("conv_relu_pool", "tiled", (37, 19, 3, 16))]:
            with self.subTest(variant=f"{pipeline}/{schedule}"):
                p = reference.PIPELINES[pipeline]
                k = fuselab.kernel(pipeline, schedule, "cuda")
                _, static = torch_inputs(p, self.rng, size, "cuda")
                outs = {o: torch.full(sh, float("nan"), device="cuda")
                        for o, sh in p.output_shapes(size).items()}
                s.wait_stream(torch.cuda.current_stream())
                with torch.cuda.stream(s):
                    k(**static, **outs)  # on the capture stream first
                s.synchronize()
                g = torch.cuda.CUDAGraph()
                with torch.cuda.graph(g, stream=s):
                    k(**static, **outs)
                for round_ in range(2):  # new data into the static inputs, then a replay
                    host, fresh = torch_inputs(p, self.rng, size, "cuda")
                    for n, t in static.items():
                        t.copy_(fresh[n])
                    for t in outs.values():
                        t.fill_(float("nan"))
                    g.replay()
                    torch.cuda.synchronize()
                    self.assert_matches(pipeline, size, outs, p.reference(host),
                                        f"replay {round_}")
                del g

    def test_graph_on_a_side_stream_after_other_work(self):
        """A graph replayed on a side stream, ordered after work queued there before it."""
        k = fuselab.kernel("add_relu", "unfused", "cuda")
        a, b = self.rand(1 << 16), self.rand(1 << 16)
        out = torch.empty(1 << 16, device="cuda")
        s = torch.cuda.Stream()
        s.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(s):
            k(a=a, b=b, out=out)
        s.synchronize()
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g, stream=s):
            k(a=a, b=b, out=out)
        out.fill_(float("nan"))
        torch.cuda.synchronize()
        with torch.cuda.stream(s):
            a.mul_(-1.0)  # queued on s before the replay
            g.replay()
        s.synchronize()
        self.assertTrue(torch.equal(out, torch.relu(a + b)))
        del g

    def test_hand_written_variants_capture_too(self):
        """The seed's kernels run on the caller's stream (its intermediate from the stream-ordered
        allocator), so a graph captures them like Halide's."""
        if not has_variant("add_relu", "seed_unfused", "cuda"):
            self.skipTest("no seed_cuda variants in this build")
        s = torch.cuda.Stream()
        for schedule in ("seed_fused", "seed_unfused"):
            with self.subTest(schedule=schedule):
                k = fuselab.kernel("add_relu", schedule, "cuda")
                a, b = self.rand(4099), self.rand(4099)
                out = torch.full((4099,), float("nan"), device="cuda")
                s.wait_stream(torch.cuda.current_stream())
                with torch.cuda.stream(s):
                    k(a=a, b=b, out=out)
                s.synchronize()
                g = torch.cuda.CUDAGraph()
                with torch.cuda.graph(g, stream=s):
                    k(a=a, b=b, out=out)
                a.copy_(self.rand(4099))
                out.fill_(float("nan"))
                torch.cuda.synchronize()
                g.replay()
                torch.cuda.synchronize()
                self.assertTrue(torch.equal(out, torch.relu(a + b)))
                del g


def main():
    why_not_cuda = None if NO_TORCH else cuda_unusable()
    print(f"test_torch: fuselab from {fuselab._lib.LIBRARY_PATH}; seed {SEED}; "
          + (NO_TORCH or f"torch {torch.__version__}"
             + (f"; CUDA part skipped: {why_not_cuda}" if why_not_cuda else "; CUDA part runs")),
          flush=True)
    # The child-only class, skipped in the parent by design, counts for nothing.
    ignore = () if os.environ.get(CHILD_ENV) else ("CudaGraphsChild",)
    return harness.main(argv=sys.argv, ignore_skipped_classes=ignore)


if __name__ == "__main__":
    sys.exit(main())
