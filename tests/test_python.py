#!/usr/bin/env python3
"""The Python package on numpy arrays: every CPU variant against tests/reference.py (numpy
float64), outputs returned and given by name, zero-copy views, inputs with no element (empty
outputs, nothing run), and every error as fuselab.Error naming the variant. Run by CTest with
the build's libfuselab.so (FUSELAB_LIBRARY):

    python3 tests/test_python.py [PATH/TO/fuselab]   # the CLI, to compare with `fuselab list --json`

The seed (printed first) is random unless FUSELAB_TEST_SEED gives it.

Outputs are compared with reference.check (every element within its bound, and the norm). A
refusal passes only from a variant that declares the limit (harness.variant_limit), in its words,
and never at the default size. The CUDA variants on host arrays run where a GPU is usable and
skip, saying why, elsewhere (a failure under FUSELAB_REQUIRE_CUDA=1). Exit status 0, 1, or 77
when every test skipped; the last line is `N passed, N failed, N skipped`.
"""
import json
import os
import sys
import unittest

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fuselab  # noqa: E402
import harness  # noqa: E402
import reference  # noqa: E402

CLI = None
SEED = int(os.environ.get("FUSELAB_TEST_SEED", int.from_bytes(os.urandom(4), "little")))

# Small sizes that straddle tiles, per size format; autoscheduled variants run where they accept.
SIZES = {"N": [(1,), (1021,), (65537,)], "WxH": [(1, 1), (37, 19), (130, 67)],
         "WxHxCxK": [(2, 2, 1, 1), (37, 19, 3, 16), (31, 30, 5, 17)]}
AUTO_SIZES = {"N": [(1 << 24,)], "WxH": [(1031, 517)], "WxHxCxK": [(300, 200, 3, 16)]}
# Special inputs (reference.py: +-inf and +-1e30 for add_relu, 1e4 .. 1e30 where tanh and sigmoid
# saturate) at these sizes, and an autoscheduled variant's at its default size.
SPECIAL_SIZES = [(7,), (1021,), (65537,)]


def workload(pipeline):
    return next(w for w in fuselab.workloads() if w["pipeline"] == pipeline)


def default_size(v):
    w = workload(v["pipeline"])
    sizes = w["cuda_sizes"] if v["target"] == "cuda" else w["cpu_sizes"]
    return reference.parse_size(v["pipeline"], sizes[0])


def as_tuple(x):
    return x if isinstance(x, tuple) else (x,)


class VariantCase(unittest.TestCase):
    def call(self, k, v, size, inputs, **outputs):
        """k(**inputs, **outputs) as a tuple, or None where the variant refused in the words of
        its declared limit (anything else fails the test)."""
        try:
            return as_tuple(k(**inputs, **outputs))
        except fuselab.Error as e:
            limit, _ = harness.variant_limit(v)
            problem = harness.refusal_problem(k.name, limit, str(e), size == default_size(v))
            if problem:
                self.fail(problem)
            return None

    def assert_outputs(self, p, size, ref, outs, what=""):
        for o, a in zip(p.outputs, outs):
            a = a.detach().cpu().numpy() if hasattr(a, "detach") else a
            ok, msg = reference.check(p, a, ref[o], size, o)
            self.assertTrue(ok, f"{what}{msg}")

    def run_variant(self, v, size, rng, special=False):
        """One variant at one size: outputs returned, then given by name (poisoned first).
        True if it ran, False if it refused in words."""
        p = reference.PIPELINES[v["pipeline"]]
        k = fuselab.kernel(v["pipeline"], v["schedule"], v["target"])
        inputs = p.special_inputs(rng, size) if special else p.inputs(rng, size)
        ref = p.reference(inputs)
        got = self.call(k, v, size, inputs)
        if got is None:
            return False
        given = {o: np.full(ref[o].shape, np.nan, np.float32) for o in p.outputs}
        back = self.call(k, v, size, inputs, **given)
        self.assertIsNotNone(back, "refused the second call of a size it ran")
        for o, a, b in zip(p.outputs, got, back):
            self.assertIsInstance(a, np.ndarray)
            self.assertEqual(a.dtype, np.float32)
            self.assertIs(b, given[o])  # written in place, the same object returned
        self.assert_outputs(p, size, ref, got, "returned: ")
        self.assert_outputs(p, size, ref, back, "given by name: ")
        return True


class Variants(VariantCase):
    def test_records_match_fuselab_list(self):
        vs = fuselab.variants()
        self.assertGreater(len(vs), 0)
        for v in vs:
            for key in ("pipeline", "schedule", "target", "dtype", "kind", "kernels", "arguments",
                        "name"):
                self.assertIn(key, v)
            self.assertIn(v["dtype"], ("float32", "bfloat16", "float16"), v["name"])
            self.assertEqual(v["name"], f"{v['pipeline']}/{v['schedule']}/{v['target']}" +
                             ("" if v["dtype"] == "float32" else f"/{v['dtype']}"))
        for v in vs:
            limit, _ = harness.variant_limit(v)
            self.assertIn(limit, harness.LIMITS, v["name"])
        if CLI:
            p = harness.run_fuselab(CLI, "list", "--json", timeout=120)
            self.assertEqual(p.returncode, 0, p.stderr)
            listed = json.loads(p.stdout)
            self.assertEqual(sorted((v["pipeline"], v["schedule"], v["target"]) for v in listed),
                             sorted((v["pipeline"], v["schedule"], v["target"]) for v in vs))
            if all("dtype" in v for v in listed):  # the CLI's records carry it too
                self.assertEqual(sorted((v["pipeline"], v["schedule"], v["target"], v["dtype"])
                                        for v in listed),
                                 sorted((v["pipeline"], v["schedule"], v["target"], v["dtype"])
                                        for v in vs))

    def test_every_cpu_variant_matches_float64(self):
        rng = np.random.default_rng(SEED)
        checked = 0
        for v in fuselab.variants():
            if v["target"] != "cpu" or v["pipeline"] not in reference.PIPELINES:
                continue
            if v["pipeline"] in reference.ROW_PIPELINES:
                continue  # in their storage types: tests/test_rows.py
            fmt = workload(v["pipeline"])["size_format"]
            # Autoscheduled variants: a mid-size shape, which they may refuse in words (their
            # tiles have no tail guards), and their default size, which they must run.
            default = default_size(v)
            limit, _ = harness.variant_limit(v)
            auto = AUTO_SIZES[fmt] + [default] * (default not in AUTO_SIZES[fmt])
            sizes = auto if limit == "autoscheduled" else SIZES[fmt]
            if limit == "one_shape" and default not in sizes:
                sizes = sizes + [default]  # the one shape it runs
            for size in sizes:
                with self.subTest(variant=v["name"], size=size, seed=SEED):
                    checked += self.run_variant(v, size, rng)
        self.assertGreater(checked, 30)

    def test_special_inputs(self):
        """add_relu with +-inf and +-1e30 mixed in, pointwise_chain and branches with magnitudes
        1e4 .. 1e30: the outputs the math defines (inf stays inf, relu(-inf) = 0, tanh and
        sigmoid saturate), every element."""
        rng = np.random.default_rng(SEED)
        checked = 0
        for v in fuselab.variants():
            if v["target"] != "cpu" or v["pipeline"] not in reference.SPECIAL_PIPELINES:
                continue
            limit, _ = harness.variant_limit(v)
            sizes = SPECIAL_SIZES + ([default_size(v)] if limit == "autoscheduled" else [])
            for size in sizes:
                with self.subTest(variant=v["name"], size=size, seed=SEED):
                    checked += self.run_variant(v, size, rng, special=True)
        self.assertGreater(checked, 10)

    def test_every_cuda_variant_on_host_arrays(self):
        """CUDA variants on numpy arrays (copied to the device and back), at small sizes."""
        status = fuselab.cuda_status()
        cuda = [v for v in fuselab.variants() if v["target"] == "cuda"]
        if not cuda:
            raise harness.cuda_skip("this build has no CUDA variants")
        if not status["usable"]:
            raise harness.cuda_skip("fuselab sees no usable CUDA device: " + status["reason"])
        rng = np.random.default_rng(SEED)
        ran = 0
        for v in cuda:
            if v["pipeline"] not in reference.PIPELINES or v["pipeline"] in reference.ROW_PIPELINES:
                continue  # the row pipelines: tests/test_rows.py
            p = reference.PIPELINES[v["pipeline"]]
            sizes = list(SIZES[p.size_format])
            limit, _ = harness.variant_limit(v)
            if limit == "one_shape":
                sizes.append(default_size(v))
            for size in sizes:
                with self.subTest(variant=v["name"], size=size, seed=SEED):
                    ran += self.run_variant(v, size, rng)
            if p.has_special:
                with self.subTest(variant=v["name"], size=(1021,), special=True, seed=SEED):
                    ran += self.run_variant(v, (1021,), rng, special=True)
        self.assertGreater(ran, 20)


class ReferenceCheck(unittest.TestCase):
    """reference.check itself, on made-up outputs: what it must catch and what it must pass."""

    def setUp(self):
        self.rng = np.random.default_rng(SEED)

    def exact(self, name, size):
        p = reference.PIPELINES[name]
        ref = p.reference(p.inputs(self.rng, size))
        return p, ref, {o: r.astype(np.float32) for o, r in ref.items()}

    def test_one_element_off_fails_where_the_norm_passes(self):
        for name, size in [("add_relu", (1 << 20,)), ("pointwise_chain", (1 << 20,)),
                           ("branches", (1 << 20,)), ("blur3x3", (1024, 1024)),
                           ("stencil_chain_k8", (1024, 1024)), ("conv_relu_pool", (512, 512, 16, 16)),
                           ("two_convs", (256, 256, 16, 16))]:
            with self.subTest(pipeline=name):
                p, ref, out = self.exact(name, size)
                for o in p.outputs:
                    self.assertTrue(reference.check(p, out[o], ref[o], size, o)[0])
                o = p.outputs[-1]
                bad = out[o].copy()
                bad.reshape(-1)[bad.size // 3] += np.float32(1e-3)
                self.assertTrue(reference.passes(bad, ref[o], p.tolerance))  # the old norm alone
                ok, msg = reference.check(p, bad, ref[o], size, o)
                self.assertFalse(ok)
                self.assertIn(f"1 of {bad.size} elements", msg)
                self.assertIn(str(bad.size // 3), msg)  # the worst element, named

    def test_nan_inf_and_shapes(self):
        p = reference.PIPELINES["add_relu"]
        ref = np.array([1.0, np.inf, -np.inf, np.nan, 0.0, 2.0])
        good = np.array(ref, np.float32)
        self.assertTrue(reference.check(p, good, ref, 6, "out")[0])
        for i, v in [(1, -np.inf), (1, 3e38), (2, -3e38), (1, np.nan), (3, np.inf), (3, 0.0),
                     (4, np.nan), (4, np.inf), (5, 2.001)]:
            with self.subTest(index=i, value=v):
                bad = good.copy()
                bad[i] = v
                ok, msg = reference.check(p, bad, ref, 6, "out")
                self.assertFalse(ok)
                self.assertIn(f"index {i}", msg)
        ok, msg = reference.check(p, good[:5], ref, 6, "out")
        self.assertFalse(ok)
        self.assertIn("shape", msg)

    def test_bounds(self):
        conv = reference.PIPELINES["conv_relu_pool"]
        self.assertAlmostEqual(conv.bounds((64, 64, 3, 16))[0], 2e-6 * 9 * 3)
        self.assertAlmostEqual(conv.bounds((64, 64, 64, 64))[0], 2e-6 * 9 * 64)
        for name, p in reference.PIPELINES.items():
            if name in reference.ROW_PIPELINES:
                continue  # per storage type, h exact: tests/test_rows.py
            size = {"N": (1021,), "WxH": (31, 17), "WxHxCxK": (31, 17, 5, 17)}[p.size_format]
            for o in p.outputs:
                atol, rtol = p.bounds(size, o)
                self.assertGreater(atol, 0, name)
                self.assertLessEqual(atol + rtol, 1e-3, name)  # never loose enough for 1e-3

    def test_special_references_are_the_math(self):
        p = reference.PIPELINES["add_relu"]
        r = p.reference({"a": np.array([np.inf, -np.inf, 1e30, -1e30, 1e30], np.float32),
                         "b": np.array([0.5, 0.5, -1e30, 0.5, 1e30], np.float32)})["out"]
        np.testing.assert_array_equal(r, [np.inf, 0.0, 0.0, 0.0, 2 * float(np.float32(1e30))])
        big = np.array([1e30, -1e30, 1e4, -1e4], np.float32)
        chain = reference.PIPELINES["pointwise_chain"].reference({"x": big})["out"]
        top = 3 / (1 + np.exp(-3.0))             # tanh saturates at 1: 3 sigmoid(3)
        low = 3 / (1 + np.exp(-(2 * np.tanh(-0.1) + 1)))  # relu gives 0: s5 = -0.1
        np.testing.assert_allclose(chain, [top, low, top, low], rtol=1e-15)
        out1, out2 = (reference.PIPELINES["branches"].reference({"x": big})[o] for o in ("out1", "out2"))
        np.testing.assert_array_equal(out2, [0.5, 0.0, 0.5, 0.0])
        np.testing.assert_allclose(out1, [2 * float(np.float32(1e30)) + 1, 0, 2e4 + 1, 0], rtol=1e-15)
        for name in reference.SPECIAL_PIPELINES:  # the generated special inputs: as promised
            q = reference.PIPELINES[name]
            ins = q.special_inputs(self.rng, (1021,))
            mags = np.concatenate([np.abs(a) for a in ins.values()])
            self.assertGreater(np.count_nonzero(mags >= 1e4), 200, name)
            self.assertFalse(np.isnan(mags).any(), name)
            if name == "add_relu":
                self.assertTrue(np.isposinf(ins["a"]).any() and np.isneginf(ins["a"]).any())
                self.assertFalse((np.isinf(ins["a"]) & np.isinf(ins["b"])).any())  # no inf - inf
            else:
                self.assertFalse(np.isinf(mags).any(), name)


class ZeroCopy(unittest.TestCase):
    def setUp(self):
        self.rng = np.random.default_rng(SEED)
        self.k = fuselab.kernel("add_relu", "fused", "cpu")

    def test_views_are_read_and_written_in_place(self):
        base = self.rng.uniform(-1, 1, (3, 1001)).astype(np.float32)
        a, b = base[0], base[1]  # rows of one array: contiguous views at offsets
        out_base = np.full((3, 1001), 7.0, np.float32)
        self.k(a=a, b=b, out=out_base[1])
        np.testing.assert_array_equal(out_base[1], np.maximum(0, a + b))
        np.testing.assert_array_equal(out_base[0], 7.0)  # nothing else touched
        np.testing.assert_array_equal(out_base[2], 7.0)

    def test_outer_strides_are_honoured(self):
        # conv input (C, H, W) taken every other row: the inner dimension stays dense, so it is
        # passed as is, strides and all.
        k = fuselab.kernel("conv_relu_pool", "tiled", "cpu")
        p = reference.PIPELINES["conv_relu_pool"]
        big = self.rng.uniform(-1, 1, (3, 46, 37)).astype(np.float32)
        x = big[:, ::2, :]
        w = self.rng.uniform(-1, 1, (16, 3, 3, 3)).astype(np.float32)
        bias = self.rng.uniform(-1, 1, 16).astype(np.float32)
        out = k(input=x, weights=w, bias=bias)
        ref = p.reference({"input": np.ascontiguousarray(x), "weights": w, "bias": bias})["out"]
        ok, msg = reference.check(p, out, ref, (37, 23, 3, 16), "out")
        self.assertTrue(ok, msg)

    def test_inner_strides_are_refused_with_a_message(self):
        a = self.rng.uniform(-1, 1, 2002).astype(np.float32)
        for view in (a[::2], a[::-1][:1001]):
            with self.assertRaises(fuselab.Error) as e:
                self.k(a=view, b=np.ascontiguousarray(view))
            self.assertIn("add_relu/fused/cpu: input 'a' has a layout this variant cannot take",
                          str(e.exception))


class Errors(unittest.TestCase):
    def setUp(self):
        self.k = fuselab.kernel("add_relu", "fused", "cpu")
        self.a = np.ones(64, np.float32)

    def assert_error(self, fragment, fn, *args, **kwargs):
        with self.assertRaises(fuselab.Error) as e:
            fn(*args, **kwargs)
        self.assertIn(fragment, str(e.exception))
        return str(e.exception)

    def test_messages_name_the_variant_and_the_problem(self):
        a, k = self.a, self.k
        self.assert_error("add_relu/fused/cpu: input 'a' has type float64, expected float32",
                          k, a=a.astype(np.float64), b=a)
        self.assert_error("add_relu/fused/cpu: input 'a' has rank 2, expected 1", k,
                          a=a.reshape(8, 8), b=a, out=np.empty(64, np.float32))
        self.assert_error("add_relu/fused/cpu", k, a=a, b=a[:63])
        self.assert_error("add_relu/fused/cpu: missing input 'b'", k, a=a)
        self.assert_error("add_relu/fused/cpu: unknown argument 'c'", k, a=a, b=a, c=a)
        ro = np.empty(64, np.float32)
        ro.flags.writeable = False
        self.assert_error("add_relu/fused/cpu: output 'out' is a read-only array", k, a=a, b=a,
                          out=ro)
        self.assert_error("output 'out' shares memory with input 'a'", k, a=a, b=a.copy(), out=a)
        self.assert_error("add_relu/fused/cpu: argument 'a' is a list", k, a=[1.0] * 64, b=a)
        self.assert_error("unknown variant add_relu/nonsense/cpu", fuselab.kernel, "add_relu",
                          "nonsense", "cpu")
        self.assert_error("no pipeline 'nope'", fuselab.kernel, "nope", "fused", "cpu")
        self.assertTrue(issubclass(fuselab.Error, RuntimeError))

    def test_cuda_variant_without_a_device_says_why(self):
        if fuselab.cuda_status()["usable"]:
            self.skipTest("a CUDA device is usable here")
        k = fuselab.kernel("add_relu", "fused", "cuda")
        self.assert_error("add_relu/fused/cuda: no usable CUDA device: ", k, a=self.a, b=self.a)

    def test_autoscheduled_variant_refuses_in_words(self):
        k = fuselab.kernel("add_relu", "auto", "cpu")
        msg = self.assert_error("add_relu/auto/cpu: refuses this size", k, a=self.a, b=self.a)
        self.assertIn("Use a hand-written schedule", msg)
        self.assertNotIn("accessed at", msg)


class Empty(unittest.TestCase):
    def test_inputs_with_no_element_give_empty_outputs(self):
        """add_relu of N = 0 through every CPU variant and the pipeline kernel (nothing chosen),
        conv_relu_pool of H = 0 (its output [K, 0, W/2]): empty float32 arrays of the shapes the
        inputs imply, allocated or given; refused where an output would still have elements (a
        conv over zero channels, an output given), where the inputs disagree, or in float64."""
        a = np.zeros(0, np.float32)
        for v in fuselab.variants():
            if (v["pipeline"], v["target"]) != ("add_relu", "cpu"):
                continue
            with self.subTest(variant=v["name"]):
                out = fuselab.kernel("add_relu", v["schedule"], "cpu")(a=a, b=a)
                self.assertEqual((out.shape, out.dtype), ((0,), np.float32))
        k = fuselab.kernel("add_relu")
        self.assertEqual(k(a=a, b=a).shape, (0,))
        self.assertIsNone(k.chosen)
        given = np.zeros(0, np.float32)
        self.assertIs(fuselab.kernel("add_relu", "fused", "cpu")(a=a, b=a, out=given), given)
        conv = {"input": np.zeros((3, 0, 37), np.float32),
                "weights": np.zeros((16, 3, 3, 3), np.float32), "bias": np.zeros(16, np.float32)}
        for kc in (fuselab.kernel("conv_relu_pool"),
                   fuselab.kernel("conv_relu_pool", "tiled", "cpu")):
            with self.subTest(kernel=repr(kc)):
                self.assertEqual(kc(**conv).shape, (16, 0, 18))
                self.assertEqual(kc.output_shapes(**conv), {"out": (16, 0, 18)})
        refused = {
            "a conv over zero channels": (fuselab.kernel("conv_relu_pool"), dict(
                conv, input=np.zeros((0, 19, 37), np.float32),
                weights=np.zeros((16, 0, 3, 3), np.float32))),
            "inputs that disagree": (k, dict(a=a, b=np.zeros(5, np.float32))),
            "float64": (fuselab.kernel("add_relu", "fused", "cpu"), dict(a=a.astype(np.float64),
                                                                     b=a.astype(np.float64))),
            "an output with elements": (fuselab.kernel("add_relu", "fused", "cpu"),
                                        dict(a=a, b=a, out=np.zeros(5, np.float32)))}
        for case, (kr, args) in refused.items():
            with self.subTest(refused=case):
                with self.assertRaises(fuselab.Error):
                    kr(**args)


class DLPack(unittest.TestCase):
    def test_an_object_with_only_dlpack(self):
        class Only:  # exposes nothing but the DLPack protocol
            def __init__(self, a):
                self._a = a

            def __dlpack__(self, stream=None):
                return self._a.__dlpack__()

            def __dlpack_device__(self):
                return self._a.__dlpack_device__()

        rng = np.random.default_rng(SEED)
        a, b = (rng.uniform(-1, 1, 999).astype(np.float32) for _ in range(2))
        out = np.full(999, np.nan, np.float32)
        k = fuselab.kernel("add_relu", "fused", "cpu")
        k(a=Only(a), b=Only(b), out=out)
        np.testing.assert_array_equal(out, np.maximum(0, a + b))
        with self.assertRaises(fuselab.Error) as e:  # nothing to allocate an output like
            k(a=Only(a), b=Only(b))
        self.assertIn("cannot allocate output 'out'", str(e.exception))


if __name__ == "__main__":
    if len(sys.argv) > 1 and not sys.argv[1].startswith("-"):
        CLI = sys.argv.pop(1)
    print(f"fuselab from {fuselab._lib.LIBRARY_PATH}; seed {SEED}", flush=True)
    sys.exit(harness.main())
