#!/usr/bin/env python3
"""The row pipelines (softmax, rmsnorm_residual, layernorm) from Python, in every storage type
they are built in (float32, bfloat16, float16), against the float64 references of
tests/reference.py (from the same, already rounded, inputs; h bit for bit x + residual in the
type):

- numpy arrays through fuselab.kernel: every CPU row variant at N = 1, 7, 1000 and 65537 (a few
  rows each) and at a leading shape [2, 3, N]; outputs returned (x's shape and type) and given
  (poisoned with NaN first), fresh random inputs every run; bfloat16 as numpy uint16 bits and as
  ml_dtypes.bfloat16 (where ml_dtypes is importable); a strategy named without a dtype running
  the variant of its inputs' type; the pipeline kernel (strategy chosen) per type;
- rows of all-equal values, rows of magnitude 1e4 (softmax of x = 1e4 must be 1/N, not
  overflow), NaN and infinities (propagated as torch propagates them: the reference's IEEE
  float64, checked against torch's own where torch is importable);
- refusals naming the variant: the wrong storage type, shapes that disagree, an output of the
  wrong shape, a strided row;
- torch tensors (float32, bfloat16, float16) on the CPU: through fuselab.kernel, the variants'
  ops (torch.ops.fuselab.softmax__<schedule>__cpu__bfloat16 and the like), the pipeline ops
  torch.ops.fuselab.softmax / rmsnorm_residual / layernorm eagerly, under FakeTensorMode and
  inside torch.compile(fullgraph=True); torch's own implementations pass the same bounds (a check
  of the bounds themselves);
- what a torch user expects of the ops: a backward pass through any of them raises a
  RuntimeError naming the op (eagerly and compiled), and the forward runs as before under
  torch.no_grad() and torch.inference_mode(); an empty batch (M = 0, and N = 0) gives empty
  outputs of x's shape, type and device, through the ops, fuselab.kernel and numpy arrays alike,
  and empty inputs that disagree or hold a type not built are still refused;
- the same on CUDA tensors for every CUDA row variant (float16 too), and CUDA variants on numpy
  arrays, where a GPU is usable; otherwise they skip, saying why (a failure under
  FUSELAB_REQUIRE_CUDA=1, tests/harness.py).

    python3 tests/test_rows.py        # FUSELAB_LIBRARY=PATH/libfuselab.so if not beside the package

The seed (printed first) is random unless FUSELAB_TEST_SEED gives it. The last line is
`N passed, N failed, N skipped`; exit 0, 1, or 77 when every test skipped.
"""
import os
import sys
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
except ImportError as e:  # the torch classes skip with it
    torch = None
    NO_TORCH = f"PyTorch is not installed here ({e})"

try:
    import ml_dtypes
except ImportError:
    ml_dtypes = None

SEED = int(os.environ.get("FUSELAB_TEST_SEED", int.from_bytes(os.urandom(4), "little")))
ROWS = reference.ROW_PIPELINES
# (N, leading shape): N = 1, 7, 1000, 65537 on a few rows, the leading shape [2, 3, N], and 35 rows
# of 33 (the CPU's lane_rows: two vectors of 16 rows and a tail).
SHAPES = [(1, (3,)), (7, (3,)), (33, (5, 7)), (1000, (3,)), (65537, (2,)), (7, (2, 3)),
          (1000, (2, 3))]
QUICK_SHAPES = [(7, (3,)), (1000, (2, 3))]  # through each variant's op, and the dispatching kernel
SPECIAL_N = (7, 1000)


def row_variants(target):
    return [v for v in fuselab.variants() if v["pipeline"] in ROWS and v["target"] == target]


def prod(shape):
    m = 1
    for s in shape:
        m *= s
    return m


def poison(shape, dtype):
    """NaN of the storage type, everywhere (bfloat16: uint16 bits 0x7fc0)."""
    return reference.to_storage(np.full(shape, np.nan, np.float32), dtype)


def shaped_inputs(p, rng, n, lead, dtype):
    """(2-D inputs, the same with x and residual in the leading shape lead + (n,))."""
    flat = p.inputs(rng, (n, prod(lead)), dtype)
    return flat, {k: (a.reshape(lead + (n,)) if a.ndim == 2 else a) for k, a in flat.items()}


def default_size(v):
    w = next((w for w in fuselab.workloads() if w["pipeline"] == v["pipeline"]), None)
    if w is None:
        return None
    sizes = w["cuda_sizes"] if v["target"] == "cuda" else w["cpu_sizes"]
    return reference.parse_size(v["pipeline"], sizes[0]) if sizes else None


def as_tuple(x):
    return x if isinstance(x, tuple) else (x,)


# ---- torch <-> numpy storage arrays (bfloat16 as uint16 bits) ----------------------------------

def torch_dtype(dtype):
    return {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16}[dtype]


def to_torch(a, device="cpu"):
    """A numpy storage array as a torch tensor of its type (uint16 bits: torch.bfloat16)."""
    a = np.ascontiguousarray(a)
    if a.dtype == np.uint16:
        return torch.from_numpy(a.view(np.int16)).view(torch.bfloat16).to(device)
    return torch.from_numpy(a).to(device)


def to_numpy(t):
    """A tensor back as a numpy storage array (torch.bfloat16: uint16 bits)."""
    t = t.detach().cpu().contiguous()
    if t.dtype == torch.bfloat16:
        return t.view(torch.int16).numpy().view(np.uint16)
    return t.numpy()


def same_bits(a, b):
    """(ok, message): two storage arrays bit for bit, any NaN matching any NaN."""
    if a.shape != b.shape or a.dtype != b.dtype:
        return False, f"{a.shape} {a.dtype} against {b.shape} {b.dtype}"
    ab = a.view(np.uint32 if a.itemsize == 4 else np.uint16).reshape(-1)
    bb = b.view(np.uint32 if b.itemsize == 4 else np.uint16).reshape(-1)
    nan = np.isnan(reference.widen(a, np.float32)) & np.isnan(reference.widen(b, np.float32))
    bad = (ab != bb) & ~nan.reshape(-1)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        return False, (f"{int(np.count_nonzero(bad))} of {ab.size} differ; first at flat {i}: "
                       f"{int(ab[i]):#x} against {int(bb[i]):#x}")
    return True, "the same bits"


def torch_reference(pipeline, ins):
    """torch's own float32 math for the op, on tensors of the storage type, rounded to it: the
    yardstick for NaN and infinities, and a check of the bounds (torch passes them)."""
    x = ins["x"]
    dt = x.dtype
    if pipeline == "softmax":
        return {"out": torch.softmax(x.float(), -1).to(dt)}
    if pipeline == "rmsnorm_residual":
        h = x + ins["residual"]
        hf = h.float()
        out = ins["w"].float() * hf * torch.rsqrt(hf.pow(2).mean(-1, keepdim=True) + reference.RMS_EPS)
        return {"out": out.to(dt), "h": h}
    out = F.layer_norm(x.float(), (x.shape[-1],), ins["w"].float(), ins["b"].float(),
                       reference.LN_EPS)
    return {"out": out.to(dt)}


class RowCase(unittest.TestCase):
    def setUp(self):
        self.rng = np.random.default_rng(SEED)

    def call(self, k, v, size, args):
        """k(**args) as a tuple, or None where the variant refused in the words of its declared
        limit (anything else fails the test)."""
        try:
            return as_tuple(k(**args))
        except fuselab.Error as e:
            limit, _ = harness.variant_limit(v)
            problem = harness.refusal_problem(v["name"], limit, str(e), size == default_size(v))
            if problem:
                self.fail(problem)
            return None

    def assert_outputs(self, p, size, flat_inputs, ref, outs, dtype, what):
        """outs: numpy storage arrays by name (any leading shape), against the reference (2-D)
        and, for h, x + residual bit for bit."""
        n, m = size
        for o in p.outputs:
            a = outs[o]
            self.assertEqual(reference.storage_dtype(a), dtype, f"{what}: output '{o}' dtype "
                                                                f"{a.dtype}")
            ok, msg = reference.check(p, a.reshape(m, n), ref[o], size, o, dtype)
            self.assertTrue(ok, f"{what}: {msg}")
            if o == "h":
                ok, msg = reference.check_h(a.reshape(m, n), flat_inputs["x"],
                                            flat_inputs["residual"])
                self.assertTrue(ok, f"{what}: {msg}")

    def run_numpy(self, v, n, lead, make=None, ref_inputs=None):
        """Variant record v at N = n, leading shape `lead`, on numpy arrays: outputs returned,
        then given (poisoned); True if it ran, False if it refused in words. `make`: the 2-D
        inputs (default: fresh random ones)."""
        p = reference.PIPELINES[v["pipeline"]]
        d = v["dtype"]
        size = (n, prod(lead))
        if make is None:
            flat, args = shaped_inputs(p, self.rng, n, lead, d)
        else:
            flat = make(p, size, d)
            args = {k: (a.reshape(lead + (n,)) if a.ndim == 2 else a) for k, a in flat.items()}
        ref = p.reference(flat)
        k = fuselab.kernel(v["pipeline"], v["schedule"], v["target"], d)
        self.assertEqual(k.name, v["name"])
        got = self.call(k, v, size, args)
        if got is None:
            return False
        for o, a in zip(p.outputs, got):
            self.assertIsInstance(a, np.ndarray)
            self.assertEqual(a.shape, lead + (n,), f"{v['name']}: output '{o}'")
        self.assert_outputs(p, size, flat, ref, dict(zip(p.outputs, got)), d, "returned")
        given = {o: poison(lead + (n,), d) for o in p.outputs}
        back = self.call(k, v, size, dict(args, **given))
        self.assertIsNotNone(back, "refused the second call of a size it ran")
        for o, b in zip(p.outputs, back):
            self.assertIs(b, given[o])  # written in place, the same object returned
        self.assert_outputs(p, size, flat, ref, given, d, "given by name")
        return True


# ---------------------------------------------------------------- numpy, CPU
class Listing(unittest.TestCase):
    def test_every_row_pipeline_is_built_on_the_cpu_in_float32_and_bfloat16(self):
        vs = row_variants("cpu")
        for pipeline in ROWS:
            built = {v["dtype"] for v in vs if v["pipeline"] == pipeline}
            self.assertLessEqual({"float32", "bfloat16"}, built, pipeline)
        for v in fuselab.variants():
            self.assertIn(v["dtype"], reference.DTYPES, v["name"])
            want = f"{v['pipeline']}/{v['schedule']}/{v['target']}"
            if v["dtype"] != "float32":
                want += "/" + v["dtype"]
            self.assertEqual(v["name"], want)
            if v["pipeline"] not in ROWS:
                self.assertEqual(v["dtype"], "float32", v["name"])

    def test_records_carry_the_storage_type_of_their_arguments(self):
        words = {"float32": "float32", "float16": "float16", "bfloat16": "uint16"}
        for v in row_variants("cpu") + row_variants("cuda"):
            for a in v["arguments"]:
                self.assertEqual(a["type"], words[v["dtype"]], f"{v['name']}: {a['name']}")


class Numpy(RowCase):
    def test_every_cpu_row_variant(self):
        ran = 0
        for v in row_variants("cpu"):
            for n, lead in SHAPES:
                with self.subTest(variant=v["name"], n=n, lead=lead, seed=SEED):
                    ran += self.run_numpy(v, n, lead)
        self.assertGreater(ran, 20)

    def test_all_equal_rows(self):
        """Every row one value (a random one per row): softmax 1/N, layernorm b (var 0), rmsnorm
        w sign(h) |h| / sqrt(h^2 + eps)."""
        def make(p, size, d):
            n, m = size
            ins = p.inputs(self.rng, size, d)
            for k in ("x", "residual"):
                if k in ins:
                    ins[k] = np.repeat(ins[k][:, :1], n, axis=1)
            return ins
        for v in row_variants("cpu"):
            for n in (7, 1000, 65537):
                with self.subTest(variant=v["name"], n=n, seed=SEED):
                    self.run_numpy(v, n, (3,), make)

    def test_large_rows(self):
        """x = 1e4 everywhere (softmax: 1/N exactly, no overflow), -1e4, and rows of 1e4 times
        uniform values (every exp but the max underflows)."""
        def make(p, size, d):
            n, m = size
            ins = p.inputs(self.rng, (n, 3), d)
            x = reference.uniform(self.rng, (3, n)) * np.float32(1e4)
            x[0] = 1e4
            x[1] = -1e4
            ins["x"] = reference.to_storage(x, d)
            if "residual" in ins:
                ins["residual"] = reference.to_storage(reference.uniform(self.rng, (3, n)), d)
            return ins
        for v in row_variants("cpu"):
            for n in (7, 1000, 65537):
                with self.subTest(variant=v["name"], n=n, seed=SEED):
                    self.run_numpy(v, n, (3,), make)
        # softmax of 1e4 everywhere: exactly what the math says, 1/N rounded to the type.
        for v in row_variants("cpu"):
            if v["pipeline"] != "softmax":
                continue
            with self.subTest(variant=v["name"], exact=True):
                k = fuselab.kernel("softmax", v["schedule"], "cpu", v["dtype"])
                x = reference.to_storage(np.full((2, 4096), 1e4, np.float32), v["dtype"])
                got = self.call(k, v, (4096, 2), {"x": x})
                if got is not None:
                    want = reference.to_storage(np.full((2, 4096), 1 / 4096, np.float32),
                                                v["dtype"])
                    self.assertTrue(np.array_equal(got[0], want), f"{v['name']}: {got[0][0, :4]}")

    def test_nan_and_infinities(self):
        """Rows holding a NaN, +inf, -inf, both infinities, all -inf: as the reference's IEEE
        arithmetic (torch's: TorchCpu checks the two agree) says, element by element."""
        for v in row_variants("cpu"):
            for n in SPECIAL_N:
                with self.subTest(variant=v["name"], n=n, seed=SEED):
                    self.run_numpy(v, n, (len(SPECIAL_ROWS),), special_inputs(self.rng))

    def test_bfloat16_from_ml_dtypes(self):
        if ml_dtypes is None:
            self.skipTest("ml_dtypes is not importable here (bfloat16 as uint16 bits is tested)")
        for v in row_variants("cpu"):
            if v["dtype"] != "bfloat16":
                continue
            with self.subTest(variant=v["name"]):
                p = reference.PIPELINES[v["pipeline"]]
                flat, args = shaped_inputs(p, self.rng, 1000, (2, 3), "bfloat16")
                ml = {k: a.view(ml_dtypes.bfloat16) for k, a in args.items()}
                k = fuselab.kernel(v["pipeline"], v["schedule"], "cpu")  # the type from the array
                got = self.call(k, v, (1000, 6), ml)
                if got is None:
                    continue
                for o, a in zip(p.outputs, got):
                    self.assertEqual(a.dtype, ml_dtypes.bfloat16)
                    self.assertEqual(a.shape, (2, 3, 1000))
                self.assert_outputs(p, (1000, 6), flat, p.reference(flat),
                                    {o: a.view(np.uint16) for o, a in zip(p.outputs, got)},
                                    "bfloat16", "ml_dtypes")

    def test_a_strategy_without_a_dtype_runs_the_inputs_type(self):
        done = set()
        for v in row_variants("cpu"):
            key = (v["pipeline"], v["schedule"])
            if key in done:
                continue
            done.add(key)
            k = fuselab.kernel(v["pipeline"], v["schedule"], "cpu")
            types = [w["dtype"] for w in row_variants("cpu") if (w["pipeline"], w["schedule"]) == key]
            self.assertEqual(sorted(k.dtypes), sorted(types))
            p = reference.PIPELINES[v["pipeline"]]
            for d in types:
                with self.subTest(strategy=f"{key[0]}/{key[1]}", dtype=d):
                    flat, args = shaped_inputs(p, self.rng, 1000, (3,), d)
                    typed = fuselab.kernel(v["pipeline"], v["schedule"], "cpu", d)
                    w = next(w for w in row_variants("cpu") if w["name"] == typed.name)
                    a = self.call(typed, w, (1000, 3), args)
                    if a is None:
                        continue
                    b = as_tuple(k(**args))
                    for x, y in zip(a, b):
                        self.assertEqual(x.dtype, y.dtype)
                        self.assertTrue(np.array_equal(x.view(np.uint8), y.view(np.uint8)),
                                        f"{typed.name}: differs from the dtype-less kernel")
            with self.assertRaises(fuselab.Error) as e:
                k(**{n: np.zeros((3, 8) if n in ("x", "residual") else 8, np.float64)
                     for n in p.input_names})
            self.assertIn(f"{key[0]}/{key[1]}/cpu", str(e.exception))
            self.assertIn("float64", str(e.exception))

    def test_pipeline_kernel_per_type(self):
        for pipeline in ROWS:
            p = reference.PIPELINES[pipeline]
            k = fuselab.kernel(pipeline, target="cpu")
            for d in sorted({v["dtype"] for v in row_variants("cpu") if v["pipeline"] == pipeline}):
                with self.subTest(pipeline=pipeline, dtype=d):
                    flat, args = shaped_inputs(p, self.rng, 1000, (2, 3), d)
                    got = as_tuple(k(**args))
                    self.assertEqual(k.chosen["dtype"], d)
                    self.assertTrue(k.chosen["variant"].startswith(f"{pipeline}/"))
                    self.assertEqual(k.chosen["variant"].endswith("/" + d), d != "float32")
                    self.assert_outputs(p, (1000, 6), flat, p.reference(flat),
                                        dict(zip(p.outputs, got)), d, f"{pipeline} chosen")
                    named = fuselab.kernel(pipeline, k.chosen["schedule"], "cpu", d)
                    for x, y in zip(got, as_tuple(named(**args))):
                        self.assertTrue(np.array_equal(x.view(np.uint8), y.view(np.uint8)))
            kb = fuselab.kernel(pipeline, target="cpu", dtype="bfloat16")
            flat, args = shaped_inputs(p, self.rng, 7, (3,), "float32")
            with self.assertRaises(fuselab.Error) as e:
                kb(**args)
            self.assertIn(f"{pipeline} on cpu in bfloat16", str(e.exception))
            self.assertIn("float32", str(e.exception))

    def test_refusals_name_the_variant(self):
        for v in row_variants("cpu"):
            if v["pipeline"] != "rmsnorm_residual":
                continue
            p = reference.PIPELINES["rmsnorm_residual"]
            name, d = v["name"], v["dtype"]
            k = fuselab.kernel("rmsnorm_residual", v["schedule"], "cpu", d)
            ins = p.inputs(self.rng, (64, 4), d)
            other = "float32" if d != "float32" else "bfloat16"
            with self.subTest(variant=name, case="dtype"):
                wrong = p.inputs(self.rng, (64, 4), other)
                with self.assertRaises(fuselab.Error) as e:
                    k(**wrong)
                self.assertIn(name + ":", str(e.exception))
                self.assertIn("type", str(e.exception))
            cases = {
                "residual of another N": dict(ins, residual=p.inputs(self.rng, (65, 4), d)["residual"]),
                "residual of other rows": dict(ins, residual=p.inputs(self.rng, (64, 5), d)["residual"]),
                "w of another N": dict(ins, w=p.inputs(self.rng, (63, 4), d)["w"]),
                "output of another shape": dict(ins, out=poison((4, 65), d)),
                "a strided row": dict(ins, x=np.repeat(ins["x"], 2, axis=1)[:, ::2]),
                "leading shapes that disagree": dict(ins, x=ins["x"].reshape(2, 2, 64)),
            }
            for case, args in cases.items():
                with self.subTest(variant=name, case=case):
                    with self.assertRaises(fuselab.Error) as e:
                        k(**args)
                    self.assertIn(name, str(e.exception))
            with self.subTest(variant=name, case="unviewable output"):
                x = ins["x"].reshape(2, 2, 64)
                r = ins["residual"].reshape(2, 2, 64)
                out = poison((2, 3, 64), d)[:, :2]  # [2, 2, 64] whose rows are not evenly spaced
                with self.assertRaises(fuselab.Error) as e:
                    k(x=x, residual=r, w=ins["w"], out=out)
                self.assertIn(name, str(e.exception))
                self.assertIn("cannot be viewed", str(e.exception))

    def test_unknown_types_and_variants(self):
        with self.assertRaises(fuselab.Error) as e:
            fuselab.kernel("softmax", "block_row", "cpu", "float64")
        self.assertIn("unknown storage type", str(e.exception))
        with self.assertRaises(fuselab.Error) as e:
            fuselab.kernel("add_relu", "fused", "cpu", "bfloat16")
        self.assertIn("add_relu/fused/cpu/bfloat16", str(e.exception))
        self.assertIn("float32", str(e.exception))

    def test_empty_batches(self):
        """x of [0, N], [2, 0, N] and [3, 0]: empty outputs of x's shape and type, from the
        pipeline kernel (nothing chosen: nothing ran) and from every CPU row variant."""
        for pipeline in ROWS:
            p = reference.PIPELINES[pipeline]
            k = fuselab.kernel(pipeline, target="cpu")
            for d in sorted({v["dtype"] for v in row_variants("cpu") if v["pipeline"] == pipeline}):
                for shape in ((0, 1000), (2, 0, 1000), (3, 0)):
                    args = {n: reference.to_storage(np.zeros(shape if n in ("x", "residual")
                                                             else shape[-1:], np.float32), d)
                            for n in p.input_names}
                    with self.subTest(pipeline=pipeline, dtype=d, shape=shape):
                        got = as_tuple(k(**args))
                        self.assertIsNone(k.chosen)
                        self.assertEqual(len(got), len(p.outputs))
                        for a in got:
                            self.assertIsInstance(a, np.ndarray)
                            self.assertEqual((a.shape, reference.storage_dtype(a)), (shape, d))
                    for v in row_variants("cpu"):
                        if (v["pipeline"], v["dtype"]) != (pipeline, d):
                            continue
                        with self.subTest(variant=v["name"], shape=shape):
                            got = as_tuple(fuselab.kernel(pipeline, v["schedule"], "cpu",
                                                          d)(**args))
                            self.assertEqual([(a.shape, reference.storage_dtype(a)) for a in got],
                                             [(shape, d)] * len(p.outputs))


# The special rows (SPECIAL_ROWS[i] is row i): where they put NaN and infinities in x.
SPECIAL_ROWS = ("plain", "nan", "+inf", "-inf", "+inf and -inf", "all -inf", "all +inf")


def special_inputs(rng):
    def make(p, size, d):
        n, m = size
        ins = p.inputs(rng, size, d)
        x = reference.widen(ins["x"], np.float32)
        for row, kind in enumerate(SPECIAL_ROWS):
            at = rng.integers(0, n, 2)
            if kind == "nan":
                x[row, at[0]] = np.nan
            elif kind == "+inf":
                x[row, at[0]] = np.inf
            elif kind == "-inf":
                x[row, at[0]] = -np.inf
            elif kind == "+inf and -inf":
                x[row, at[0]], x[row, at[1]] = np.inf, -np.inf
            elif kind == "all -inf":
                x[row] = -np.inf
            elif kind == "all +inf":
                x[row] = np.inf
        ins["x"] = reference.to_storage(x, d)
        return ins
    return make


# ---------------------------------------------------------------- torch tensors
class TorchRows(RowCase):
    device = "cpu"
    target = "cpu"

    @classmethod
    def setUpClass(cls):
        if NO_TORCH:
            raise unittest.SkipTest(NO_TORCH)
        import fuselab.torch_ops  # noqa: F401

    def run_torch(self, v, n, lead, via="kernel", make=None):
        """Variant v on tensors of `self.device` at N = n, leading shape `lead`: through
        fuselab.kernel (outputs returned, then given, poisoned) or its op."""
        p = reference.PIPELINES[v["pipeline"]]
        d = v["dtype"]
        size = (n, prod(lead))
        flat = make(p, size, d) if make else p.inputs(self.rng, size, d)
        ref = p.reference(flat)
        args = {k: to_torch(a.reshape(lead + (n,)) if a.ndim == 2 else a, self.device)
                for k, a in flat.items()}
        if via == "op":
            op = getattr(torch.ops.fuselab, fuselab.torch_ops.op_name(
                v["pipeline"], v["schedule"], v["target"], d))
            self.assertIs(fuselab.torch_ops.op(v["pipeline"], v["schedule"], v["target"], d), op)
            try:
                got = as_tuple(op(*[args[k] for k in p.input_names]))
            except fuselab.Error as e:
                limit, _ = harness.variant_limit(v)
                problem = harness.refusal_problem(v["name"], limit, str(e), size == default_size(v))
                if problem:
                    self.fail(problem)
                return False
        else:
            k = fuselab.kernel(v["pipeline"], v["schedule"], v["target"], d)
            got = self.call(k, v, size, args)
            if got is None:
                return False
        for o, t in zip(p.outputs, got):
            self.assertIsInstance(t, torch.Tensor)
            self.assertEqual((t.dtype, tuple(t.shape), t.device.type),
                             (torch_dtype(d), lead + (n,), self.device), f"{v['name']}: {o}")
        outs = dict(zip(p.outputs, got))
        self.assert_outputs(p, size, flat, ref, {o: to_numpy(t) for o, t in outs.items()}, d, via)
        if "h" in outs:  # bit for bit torch's own x + residual, in the type
            ok, msg = same_bits(to_numpy(outs["h"]), to_numpy(args["x"] + args["residual"]))
            self.assertTrue(ok, f"{v['name']}: h against torch's x + residual: {msg}")
        if via == "kernel":
            given = {o: to_torch(poison(lead + (n,), d), self.device) for o in p.outputs}
            ptrs = {o: t.data_ptr() for o, t in given.items()}
            back = self.call(k, v, size, dict(args, **given))
            self.assertIsNotNone(back, "refused the second call of a size it ran")
            for o, b in zip(p.outputs, back):
                self.assertIs(b, given[o])
                self.assertEqual(b.data_ptr(), ptrs[o])
            self.assert_outputs(p, size, flat, ref, {o: to_numpy(t) for o, t in given.items()},
                                d, "given by name")
        return True

    def test_every_row_variant_on_tensors(self):
        ran = 0
        for v in row_variants(self.target):
            for n, lead in SHAPES:
                with self.subTest(variant=v["name"], n=n, lead=lead, seed=SEED):
                    ran += self.run_torch(v, n, lead)
        self.assertGreater(ran, 20)

    def test_every_row_variant_through_its_op(self):
        ran = 0
        for v in row_variants(self.target):
            name = fuselab.torch_ops.op_name(v["pipeline"], v["schedule"], v["target"],
                                              v["dtype"])
            self.assertTrue(name.isidentifier(), name)
            for n, lead in QUICK_SHAPES:
                with self.subTest(op=name, n=n, lead=lead, seed=SEED):
                    ran += self.run_torch(v, n, lead, via="op")
        self.assertGreater(ran, 10)

    def test_special_rows_as_torch(self):
        """NaN and infinities: the reference agrees with torch's own op (NaN where torch's is
        NaN, the same infinities), and fuselab with the reference."""
        for pipeline in ROWS:
            p = reference.PIPELINES[pipeline]
            for d in reference.DTYPES:
                if d == "float16" and not any(v["dtype"] == d for v in row_variants(self.target)):
                    continue  # float16 is not built (cmake/pipelines.cmake says why)
                with self.subTest(pipeline=pipeline, dtype=d):
                    flat = special_inputs(self.rng)(p, (SPECIAL_N[1], len(SPECIAL_ROWS)), d)
                    ref = p.reference(flat)
                    mine = torch_reference(pipeline, {k: to_torch(a, self.device)
                                                      for k, a in flat.items()})
                    for o, t in mine.items():
                        got = reference.widen(to_numpy(t))
                        np.testing.assert_array_equal(np.isnan(got), np.isnan(ref[o]),
                                                      f"{pipeline} {d} {o}: NaN where torch's")
                        inf = np.isinf(ref[o])
                        np.testing.assert_array_equal(got[inf], ref[o][inf])
        for v in row_variants(self.target):
            with self.subTest(variant=v["name"], special=True):
                self.run_torch(v, SPECIAL_N[1], (len(SPECIAL_ROWS),),
                               make=special_inputs(self.rng))

    def test_torch_passes_the_same_bounds(self):
        """The bounds of reference.py are no stricter than torch's own float32 math is off."""
        for pipeline in ROWS:
            p = reference.PIPELINES[pipeline]
            for d in reference.DTYPES:
                for n in (7, 1000, 65537):
                    with self.subTest(pipeline=pipeline, dtype=d, n=n):
                        flat = p.inputs(self.rng, (n, 3), d)
                        ref = p.reference(flat)
                        mine = torch_reference(pipeline, {k: to_torch(a, self.device)
                                                          for k, a in flat.items()})
                        for o, t in mine.items():
                            ok, msg = reference.check(p, to_numpy(t), ref[o], (n, 3), o, d)
                            self.assertTrue(ok, f"torch: {msg}")

    def test_pipeline_ops(self):
        """torch.ops.fuselab.<pipeline> per type at [2, 3, N]: eagerly, under FakeTensorMode
        (the shapes and dtypes the compiler sees), and compiled (fullgraph)."""
        built = {(v["pipeline"], v["dtype"]) for v in row_variants(self.target)}
        ops = {n: getattr(torch.ops.fuselab, n) for n in ROWS}
        for pipeline in ROWS:
            self.assertIs(fuselab.torch_ops.op(pipeline), ops[pipeline])
        dtypes = sorted({d for _, d in built})
        for d in dtypes:
            with self.subTest(dtype=d, mode="fake"):
                with torch._subclasses.fake_tensor.FakeTensorMode():
                    x = torch.empty(2, 3, 1000, dtype=torch_dtype(d), device=self.device)
                    w = torch.empty(1000, dtype=torch_dtype(d), device=self.device)
                    y = ops["softmax"](x)
                    o, h = ops["rmsnorm_residual"](x, x, w)
                    z = ops["layernorm"](x, w, w)
                    for t in (y, o, h, z):
                        self.assertEqual((tuple(t.shape), t.dtype), ((2, 3, 1000), torch_dtype(d)))

        # On CUDA, torch ops around the custom ones (Inductor writes Triton code beside them):
        # a doubling, exact in every storage type. Not on the CPU, where that code would be C++
        # needing a compiler (custom ops alone compile to Python calls).
        scale = 2.0 if self.device == "cuda" else 1.0

        def f(x, r, w, b):
            out, h = ops["rmsnorm_residual"](x, r, w)
            y, z = ops["softmax"](x), ops["layernorm"](x, w, b)
            if scale != 1.0:
                return y * scale, out * scale, h, z * scale
            return y, out, h, z

        torch._dynamo.reset()
        cf = torch.compile(f, fullgraph=True)
        for d in dtypes:
            if not all((pl, d) in built for pl in ROWS):
                continue
            for mode, fn in (("eager", f), ("compiled", cf)):
                with self.subTest(dtype=d, mode=mode):
                    x, r = (reference.to_storage(reference.uniform(self.rng, (6, 1000)), d)
                            for _ in range(2))
                    w, b = (reference.to_storage(reference.uniform(self.rng, (1000,)), d)
                            for _ in range(2))
                    tx, tr, tw, tb = (to_torch(a, self.device) for a in (x, r, w, b))
                    got = fn(tx.reshape(2, 3, 1000), tr.reshape(2, 3, 1000), tw, tb)
                    refs = [("softmax", "out", reference.PIPELINES["softmax"].reference({"x": x})),
                            ("rmsnorm_residual", "out", None), ("rmsnorm_residual", "h", None),
                            ("layernorm", "out",
                             reference.PIPELINES["layernorm"].reference({"x": x, "w": w, "b": b}))]
                    rr = reference.PIPELINES["rmsnorm_residual"].reference(
                        {"x": x, "residual": r, "w": w})
                    for t, (pl, o, ref) in zip(got, refs):
                        self.assertEqual((tuple(t.shape), t.dtype, t.device.type),
                                         ((2, 3, 1000), torch_dtype(d), self.device))
                        want = (ref or rr)[o] * (1.0 if o == "h" else scale)
                        ok, msg = reference.check(pl, to_numpy(t).reshape(6, 1000), want,
                                                  (1000, 6), o, d)
                        self.assertTrue(ok, f"{mode} {pl}: {msg}")
                    self.assertTrue(reference.check_h(to_numpy(got[2]).reshape(6, 1000), x, r)[0])
                    chosen = fuselab.torch_ops.chosen("softmax", self.device)
                    self.assertEqual(chosen["dtype"], d)
        torch._dynamo.reset()

    def row_ops(self):
        """(op name, op, float32 inputs on self.device at [2, 3, 8]) for each row pipeline's op
        and the op of its first float32 variant of this target."""
        calls = []
        for pipeline in ROWS:
            p = reference.PIPELINES[pipeline]
            flat = p.inputs(self.rng, (8, 6), "float32")
            args = [to_torch(flat[n].reshape(2, 3, 8) if flat[n].ndim == 2 else flat[n],
                             self.device) for n in p.input_names]
            calls.append((pipeline, getattr(torch.ops.fuselab, pipeline), args))
            v = next((v for v in row_variants(self.target) if v["pipeline"] == pipeline
                      and v["dtype"] == "float32" and harness.variant_limit(v)[0] is None), None)
            if v is not None:
                name = fuselab.torch_ops.op_name(pipeline, v["schedule"], v["target"])
                calls.append((name, getattr(torch.ops.fuselab, name), args))
        return calls

    def assert_no_backward(self, name, outs, inputs):
        """A backward pass through `outs` raises, naming op `name`, and no input gets a grad."""
        self.assertTrue(all(o.requires_grad for o in outs), name)
        with self.assertRaises(RuntimeError) as e:
            sum(o.float().sum() for o in outs).backward()
        self.assertIn(f"torch.ops.fuselab.{name} has no backward", str(e.exception))
        self.assertIn("inference-only", str(e.exception))
        self.assertTrue(all(t.grad is None for t in inputs), name)

    def test_backward_raises_naming_the_op(self):
        """Each input in turn requiring grad: the outputs require grad, and backward raises."""
        for name, op, args in self.row_ops():
            for i in range(len(args)):
                with self.subTest(op=name, requires_grad=i):
                    ins = [a.clone().requires_grad_(j == i) for j, a in enumerate(args)]
                    self.assert_no_backward(name, as_tuple(op(*ins)), ins)

    def test_backward_raises_when_compiled(self):
        """Compiled (fullgraph) with x requiring grad: the forward runs and gives what the eager
        op gives; the backward raises, naming the op."""
        torch._dynamo.reset()
        for name, op, args in self.row_ops():
            with self.subTest(op=name):
                want = as_tuple(op(*args))
                x = args[0].clone().requires_grad_()
                outs = as_tuple(torch.compile(lambda *a, op=op: op(*a), fullgraph=True)(
                    x, *args[1:]))
                for o, w in zip(outs, want):
                    self.assertTrue(torch.equal(o.detach(), w), name)
                self.assert_no_backward(name, outs, [x])
        torch._dynamo.reset()

    def test_forward_without_grad(self):
        """Inputs requiring grad under torch.no_grad() and torch.inference_mode(), and inputs
        not requiring grad: the same outputs, none requiring grad."""
        for name, op, args in self.row_ops():
            want = as_tuple(op(*args))
            ins = [a.clone().requires_grad_() for a in args]
            for mode in (torch.no_grad, torch.inference_mode):
                with self.subTest(op=name, mode=mode.__name__):
                    with mode():
                        got = as_tuple(op(*ins))
                    self.assertEqual(len(got), len(want))
                    for g, w in zip(got, want):
                        self.assertFalse(g.requires_grad)
                        self.assertTrue(torch.equal(g, w), name)
            self.assertFalse(any(w.requires_grad for w in want), name)

    def test_empty_batches(self):
        """x of [0, N], [2, 0, N] and [3, 0] in each type built: empty outputs of x's shape, type
        and device, through the pipeline op, each variant's op of the type and fuselab.kernel;
        empty inputs that disagree in N, or of a type not built, still refused."""
        for v in row_variants(self.target):
            pipeline, d = v["pipeline"], v["dtype"]
            p = reference.PIPELINES[pipeline]
            op = getattr(torch.ops.fuselab, fuselab.torch_ops.op_name(pipeline, v["schedule"],
                                                                       v["target"], d))
            for shape in ((0, 1000), (2, 0, 1000), (3, 0)):
                args = [torch.zeros(shape if n in ("x", "residual") else shape[-1:],
                                    dtype=torch_dtype(d), device=self.device)
                        for n in p.input_names]
                k = fuselab.kernel(pipeline, target=self.target)
                callers = {"variant op": op,
                           "pipeline op": getattr(torch.ops.fuselab, pipeline),
                           "kernel": lambda *a: k(**dict(zip(p.input_names, a)))}
                for what, fn in callers.items():
                    with self.subTest(variant=v["name"], shape=shape, via=what):
                        got = as_tuple(fn(*args))
                        self.assertEqual([(tuple(t.shape), t.dtype, t.device.type) for t in got],
                                         [(shape, torch_dtype(d), self.device)] * len(p.outputs))
        x = torch.zeros(0, 8, device=self.device)
        refused = {"residual of another N": (torch.ops.fuselab.rmsnorm_residual,
                                             (x, torch.zeros(0, 9, device=self.device),
                                              torch.zeros(8, device=self.device))),
                   "w of another N": (torch.ops.fuselab.layernorm,
                                      (x, torch.zeros(9, device=self.device),
                                       torch.zeros(9, device=self.device))),
                   "float64": (torch.ops.fuselab.softmax, (x.double(),))}
        for case, (fn, args) in refused.items():
            with self.subTest(refused=case):
                with self.assertRaises(fuselab.Error):
                    fn(*args)
        with self.subTest(refused="an output of another shape"):
            with self.assertRaises(fuselab.Error):
                fuselab.kernel("softmax", target=self.target)(
                    x=x, out=torch.zeros(0, 9, device=self.device))

    def test_wrong_dtype_through_ops(self):
        for v in row_variants(self.target):
            if v["pipeline"] != "softmax" or v["dtype"] == "float32":
                continue
            with self.subTest(variant=v["name"]):
                op = fuselab.torch_ops.op("softmax", v["schedule"], v["target"], v["dtype"])
                with self.assertRaises(fuselab.Error) as e:
                    op(torch.zeros(3, 7, device=self.device))
                self.assertIn(v["name"] + ":", str(e.exception))
        with self.assertRaises(fuselab.Error) as e:
            torch.ops.fuselab.softmax(torch.zeros(3, 7, dtype=torch.float64, device=self.device))
        self.assertIn("softmax", str(e.exception))
        with self.assertRaises(fuselab.Error) as e:  # shapes that disagree, named
            torch.ops.fuselab.rmsnorm_residual(torch.zeros(2, 3, 7, device=self.device),
                                               torch.zeros(6, 7, device=self.device),
                                               torch.zeros(7, device=self.device))
        self.assertIn("disagree in shape", str(e.exception))

    def test_non_contiguous_leading_dimensions_are_copied(self):
        """x of [*, N] whose leading dimensions cannot be viewed as rows (a transpose of them):
        copied, as torch.reshape copies, and the result in x's shape."""
        v = next((v for v in row_variants(self.target) if v["pipeline"] == "softmax"
                  and harness.variant_limit(v)[0] is None), None)
        if v is None:
            self.skipTest("no softmax variant that runs every size")
        base = to_torch(reference.to_storage(reference.uniform(self.rng, (3, 2, 1000)),
                                             v["dtype"]), self.device)
        x = base.transpose(0, 1)  # [2, 3, 1000], rows not evenly spaced
        k = fuselab.kernel("softmax", v["schedule"], self.target, v["dtype"])
        try:
            y = k(x=x)
        except fuselab.Error as e:
            self.skipTest(f"{v['name']} refused: {e}")
        self.assertEqual(tuple(y.shape), (2, 3, 1000))
        flat = to_numpy(x.contiguous()).reshape(6, 1000)
        ok, msg = reference.check("softmax", to_numpy(y).reshape(6, 1000),
                                  reference.PIPELINES["softmax"].reference({"x": flat})["out"],
                                  (1000, 6), "out", v["dtype"])
        self.assertTrue(ok, msg)


# ---------------------------------------------------------------- CUDA
def cuda_why():
    if NO_TORCH:
        return NO_TORCH
    why = harness.torch_cuda_unusable(torch, fuselab)
    if why:
        return why
    if not row_variants("cuda"):
        return "this build has no CUDA row variants"
    return None


class CudaTorchRows(TorchRows):
    device = "cuda"
    target = "cuda"

    @classmethod
    def setUpClass(cls):
        why = cuda_why()
        if why:
            raise harness.cuda_skip(why)
        import fuselab.torch_ops  # noqa: F401

    def test_every_cuda_variant_in_every_type(self):
        # float16 is not built (its CUDA variants wrote NaN on unaligned rows on the H200).
        for pipeline in ROWS:
            self.assertLessEqual({"float32", "bfloat16"},
                                 {v["dtype"] for v in row_variants("cuda") if v["pipeline"] == pipeline},
                                 pipeline)

    def test_all_equal_and_large_rows(self):
        for v in row_variants("cuda"):
            for n in (1000, 65537):
                with self.subTest(variant=v["name"], n=n):
                    self.run_torch(v, n, (3,), make=lambda p, size, d: _all_equal(self.rng, p, size, d))


def _all_equal(rng, p, size, d):
    n, m = size
    ins = p.inputs(rng, size, d)
    for k in ("x", "residual"):
        if k in ins:
            ins[k] = np.repeat(ins[k][:, :1], n, axis=1)
    return ins


class CudaNumpyRows(RowCase):
    """CUDA row variants on numpy arrays (copied to the device and back)."""

    @classmethod
    def setUpClass(cls):
        if not row_variants("cuda"):
            raise harness.cuda_skip("this build has no CUDA row variants")
        status = fuselab.cuda_status()
        if not status["usable"]:
            raise harness.cuda_skip("fuselab sees no usable CUDA device: " + status["reason"])

    def test_every_cuda_row_variant_on_host_arrays(self):
        ran = 0
        for v in row_variants("cuda"):
            for n, lead in SHAPES:
                with self.subTest(variant=v["name"], n=n, lead=lead, seed=SEED):
                    ran += self.run_numpy(v, n, lead)
            with self.subTest(variant=v["name"], special=True):
                self.run_numpy(v, SPECIAL_N[1], (len(SPECIAL_ROWS),), special_inputs(self.rng))
        self.assertGreater(ran, 20)


if __name__ == "__main__":
    print(f"test_rows: fuselab from {fuselab._lib.LIBRARY_PATH}; seed {SEED}; "
          + (NO_TORCH or f"torch {torch.__version__}")
          + ("" if ml_dtypes is None else f"; ml_dtypes {ml_dtypes.__version__}"), flush=True)
    sys.exit(harness.main())
