#!/usr/bin/env python3
"""The Python package on numpy arrays: every CPU variant against tests/reference.py (numpy
float64), outputs returned and given by name, zero-copy views, and every error as fuselab.Error
naming the variant. Run by CTest with the build's libfuselab.so (FUSELAB_LIBRARY):

    python3 tests/test_python.py [PATH/TO/fuselab]   # the CLI, to compare with `fuselab list --json`
"""
import json
import os
import subprocess
import sys
import unittest

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fuselab  # noqa: E402
import reference  # noqa: E402

CLI = None
SEED = int.from_bytes(os.urandom(4), "little")

# Small sizes that straddle tiles, per size format; autoscheduled variants run where they accept.
SIZES = {"N": [(1,), (1021,), (65537,)], "WxH": [(1, 1), (37, 19), (130, 67)],
         "WxHxCxK": [(2, 2, 1, 1), (37, 19, 3, 16), (31, 30, 5, 17)]}
AUTO_SIZES = {"N": [(1 << 24,)], "WxH": [(1031, 517)], "WxHxCxK": [(300, 200, 3, 16)]}


def workload(pipeline):
    return next(w for w in fuselab.workloads() if w["pipeline"] == pipeline)


class Variants(unittest.TestCase):
    def test_records_match_fuselab_list(self):
        vs = fuselab.variants()
        self.assertGreater(len(vs), 0)
        for v in vs:
            for key in ("pipeline", "schedule", "target", "kind", "kernels", "arguments", "name"):
                self.assertIn(key, v)
        if CLI:
            listed = json.loads(subprocess.run([CLI, "list", "--json"], capture_output=True,
                                               text=True, check=True).stdout)
            self.assertEqual(sorted((v["pipeline"], v["schedule"], v["target"]) for v in listed),
                             sorted((v["pipeline"], v["schedule"], v["target"]) for v in vs))

    def test_every_cpu_variant_matches_float64(self):
        rng = np.random.default_rng(SEED)
        checked = 0
        for v in fuselab.variants():
            if v["target"] != "cpu" or v["pipeline"] not in reference.PIPELINES:
                continue
            p = reference.PIPELINES[v["pipeline"]]
            k = fuselab.kernel(v["pipeline"], v["schedule"], "cpu")
            fmt = workload(v["pipeline"])["size_format"]
            # Autoscheduled variants: a mid-size shape, which they may refuse in words (their
            # tiles have no tail guards), and their default size, which they must run.
            default = tuple(int(n) for n in workload(v["pipeline"])["cpu_sizes"][0].split("x"))
            auto = AUTO_SIZES[fmt] + [default] * (default not in AUTO_SIZES[fmt])
            sizes = auto if v["autoscheduler"] else SIZES[fmt]
            one_shape = any("parameters" in a for a in v["arguments"])
            for size in sizes:
                with self.subTest(variant=k.name, size=size, seed=SEED):
                    inputs = p.inputs(rng, size)
                    ref = p.reference(inputs)
                    # Outputs returned, then outputs given by name (poisoned first).
                    try:
                        got = k(**inputs)
                    except fuselab.Error as e:
                        if v["autoscheduler"] and size != default:
                            self.assertIn("refuses this size", str(e))
                            self.assertIn("autoscheduler tuned it for", str(e))
                            continue
                        if not one_shape:  # weights as kernel parameters: one (C, K)
                            raise
                        self.assertIn("kernel parameters, so it runs one shape only", str(e))
                        continue
                    got = got if isinstance(got, tuple) else (got,)
                    given = {o: np.full(ref[o].shape, np.nan, np.float32) for o in p.outputs}
                    back = k(**inputs, **given)
                    back = back if isinstance(back, tuple) else (back,)
                    for o, a, b in zip(p.outputs, got, back):
                        self.assertIsInstance(a, np.ndarray)
                        self.assertEqual(a.dtype, np.float32)
                        self.assertIs(b, given[o])  # written in place, the same object returned
                        self.assertLessEqual(reference.error(a, ref[o]), p.tolerance)
                        self.assertLessEqual(reference.error(b, ref[o]), p.tolerance)
                    checked += 1
        self.assertGreater(checked, 30)


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
        self.assertLessEqual(reference.error(out, ref), p.tolerance)

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
    print(f"fuselab from {fuselab._lib.LIBRARY_PATH}; seed {SEED}")
    unittest.main(verbosity=2)
