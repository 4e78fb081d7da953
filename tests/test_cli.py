#!/usr/bin/env python3
"""End-to-end tests of `fuselab run` on .npy files: numpy writes the inputs, fuselab runs a
variant, numpy reads the outputs back and compares them with a float64 reference written here
from WORKLOADS.md. Also the error cases: each must fail clearly and leave no output file. And the
parts of `fuselab bench` that need no GPU: --once (what ncu_run.sh profiles) and --cupti's refusal.

    python3 tests/test_cli.py PATH/TO/fuselab

Every run of fuselab goes through tests/harness.py, so a sanitizer report fails the test even
where the run was expected to fail (Harness below proves the check without a sanitizer). Exit
status 0, 1, or 77 when every test skipped; the last line is `N passed, N failed, N skipped`.
"""
import os
import subprocess
import sys
import tempfile
import unittest
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402

# numpy < 2.5 only warns about a malformed .npy header; newer numpy refuses it. Refuse it here.
warnings.simplefilter("error")

FUSELAB = None


def fuselab(*args):
    return harness.run_fuselab(FUSELAB, *args)


def run(*args):
    return fuselab("run", *args)


def rel_err(out, ref):
    return np.linalg.norm(out.astype(np.float64) - ref) / np.linalg.norm(ref)


class RunCommand(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.rng = np.random.default_rng(int.from_bytes(os.urandom(4), "little"))

    def path(self, name):
        return os.path.join(self.dir, name)

    def save(self, name, array):
        np.save(self.path(name), array)
        return f"{name.split('.')[0]}={self.path(name)}"

    def uniform(self, *shape):
        return self.rng.uniform(-1, 1, shape).astype(np.float32)

    def test_add_relu_round_trip(self):
        a, b = self.uniform(1001), self.uniform(1001)
        p = run("add_relu", "--schedule", "fused", "--target", "cpu", self.save("a.npy", a),
                self.save("b.npy", b), "-o", "out=" + self.path("out.npy"))
        self.assertEqual(p.returncode, 0, p.stderr)
        out = np.load(self.path("out.npy"))
        self.assertEqual(out.shape, (1001,))
        self.assertLessEqual(rel_err(out, np.maximum(0, a.astype(np.float64) + b)), 1e-6)

    def test_conv_relu_pool_follows_torch_layout(self):
        C, H, W, K = 3, 23, 37, 16
        x, w, bias = self.uniform(C, H, W), self.uniform(K, C, 3, 3), self.uniform(K)
        p = run("conv_relu_pool", "--schedule", "tiled", "--target", "cpu", self.save("input.npy", x),
                self.save("weights.npy", w), self.save("bias.npy", bias), "-o", "out=" + self.path("out.npy"))
        self.assertEqual(p.returncode, 0, p.stderr)
        out = np.load(self.path("out.npy"))
        xp = np.pad(x.astype(np.float64), ((0, 0), (1, 1), (1, 1)))
        conv = np.repeat(bias.astype(np.float64)[:, None, None], H, 1).repeat(W, 2)
        for c in range(C):
            for dy in range(3):
                for dx in range(3):
                    conv += xp[None, c, dy:dy + H, dx:dx + W] * w[:, c, dy, dx, None, None]
        r = np.maximum(conv, 0)[:, :H // 2 * 2, :W // 2 * 2]
        ref = r.reshape(K, H // 2, 2, W // 2, 2).max(axis=(2, 4))
        self.assertEqual(out.shape, ref.shape)
        self.assertLessEqual(rel_err(out, ref), 1e-4)

    def test_blur3x3_output_extent_follows_input(self):
        inp = self.uniform(19, 30)  # (H + 2, W + 2)
        p = run("blur3x3", "--schedule", "tiled", "--target", "cpu", self.save("in.npy", inp),
                "-o", "out=" + self.path("out.npy"))
        self.assertEqual(p.returncode, 0, p.stderr)
        out = np.load(self.path("out.npy"))
        d = inp.astype(np.float64)
        ref = sum(d[j:j + 17, i:i + 28] for j in range(3) for i in range(3)) / 9
        self.assertEqual(out.shape, (17, 28))
        self.assertLessEqual(rel_err(out, ref), 1e-5)

    def test_png_in_and_out(self):
        inp = self.rng.uniform(0, 1, (21, 34)).astype(np.float32)  # PNG holds [0, 1]
        p = run("blur3x3", "--schedule", "sliding", "--target", "cpu", self.save("in.npy", inp),
                "-o", "out=" + self.path("blurred.png"))
        self.assertEqual(p.returncode, 0, p.stderr)
        # The 8-bit PNG, blurred again: (H, W) = (19, 32) in, (17, 30) out.
        p = run("blur3x3", "--schedule", "inline", "--target", "cpu", "in=" + self.path("blurred.png"),
                "-o", "out=" + self.path("out.npy"))
        self.assertEqual(p.returncode, 0, p.stderr)
        out = np.load(self.path("out.npy"))
        self.assertEqual(out.shape, (17, 30))
        d = inp.astype(np.float64)
        once = sum(d[j:j + 19, i:i + 32] for j in range(3) for i in range(3)) / 9
        twice = sum(once[j:j + 17, i:i + 30] for j in range(3) for i in range(3)) / 9
        self.assertLessEqual(np.abs(out - twice).max(), 1.5 / 255)  # 8-bit quantization

    def assert_fails(self, p, *fragments):
        self.assertNotEqual(p.returncode, 0)
        for f in fragments:
            self.assertIn(f, p.stderr)
        self.assertFalse(os.path.exists(self.path("out.npy")), "a failed run left an output file")
        self.assertEqual([n for n in os.listdir(self.dir) if "partial" in n], [])

    def test_wrong_dtype(self):
        a = self.uniform(64)
        p = run("add_relu", "--schedule", "fused", "--target", "cpu", self.save("a.npy", a.astype(np.float64)),
                self.save("b.npy", a), "-o", "out=" + self.path("out.npy"))
        self.assert_fails(p, "add_relu/fused/cpu", "input 'a'", "float32")

    def test_wrong_rank(self):
        p = run("add_relu", "--schedule", "fused", "--target", "cpu", self.save("a.npy", self.uniform(8, 8)),
                self.save("b.npy", self.uniform(64)), "-o", "out=" + self.path("out.npy"))
        self.assert_fails(p, "add_relu/fused/cpu", "'a' has rank 2, expected 1")

    def test_mismatched_extents(self):
        p = run("add_relu", "--schedule", "fused", "--target", "cpu", self.save("a.npy", self.uniform(64)),
                self.save("b.npy", self.uniform(63)), "-o", "out=" + self.path("out.npy"))
        self.assert_fails(p, "add_relu/fused/cpu", "'b' has extent 63")

    def test_missing_input(self):
        p = run("add_relu", "--schedule", "fused", "--target", "cpu", self.save("a.npy", self.uniform(64)),
                "-o", "out=" + self.path("out.npy"))
        self.assert_fails(p, "missing input 'b'")

    # The storage types through files: bfloat16 as '<u2' bits, float16 as '<f2'; the output file
    # in the same type, its values those of the type's own softmax (no float64 detour).
    def bf16_bits(self, a):
        bits = a.astype(np.float32).view(np.uint32)
        return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)

    def test_softmax_in_each_storage_type(self):
        x = self.uniform(5, 1001) * 4  # M = 5 rows of N = 1001
        for dtype, stored in (("bfloat16", self.bf16_bits(x)), ("float16", x.astype(np.float16)),
                              ("float32", x)):
            wide = stored.astype(np.uint32).__lshift__(16).view(np.float32) if dtype == "bfloat16" \
                else stored.astype(np.float32)
            p = run("softmax", "--schedule", "block_row", "--target", "cpu", self.save("x.npy", stored),
                    "-o", "out=" + self.path("out.npy"))
            if dtype == "float16" and "storage types float32 bfloat16, not float16" in p.stderr:
                continue  # float16 is optional on the CPU, and this build has none: said so
            self.assertEqual(p.returncode, 0, p.stderr)
            out = np.load(self.path("out.npy"))
            self.assertEqual(out.dtype, stored.dtype, dtype)
            self.assertEqual(out.shape, (5, 1001))
            got = out.astype(np.uint32).__lshift__(16).view(np.float32) if dtype == "bfloat16" \
                else out.astype(np.float64)
            e = np.exp(wide.astype(np.float64) - wide.max(axis=1, keepdims=True))
            ref = e / e.sum(axis=1, keepdims=True)
            bound = {"bfloat16": 2 ** -8, "float16": 2 ** -11, "float32": 1e-6}[dtype] + 2e-5
            self.assertTrue(np.all(np.abs(got - ref) <= bound * np.abs(ref) + 1e-7), dtype)
            # --dtype names the type the files hold
            p = run("softmax", "--schedule", "block_row", "--target", "cpu", "--dtype", dtype,
                    "x=" + self.path("x.npy"), "-o", "out=" + self.path("out2.npy"))
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertEqual(np.load(self.path("out2.npy")).tobytes(), out.tobytes())

    def test_storage_type_mismatches(self):
        x = self.uniform(3, 64)
        p = run("softmax", "--schedule", "block_row", "--target", "cpu", "--dtype", "bfloat16",
                self.save("x.npy", x), "-o", "out=" + self.path("out.npy"))
        self.assert_fails(p, "input 'x'", "holds float32", "--dtype is bfloat16", "'<u2'")
        # rmsnorm_residual with x in bfloat16 bits and residual in float16
        p = run("rmsnorm_residual", "--schedule", "block_row", "--target", "cpu",
                self.save("x.npy", self.bf16_bits(x)), self.save("residual.npy", x.astype(np.float16)),
                self.save("w.npy", self.bf16_bits(x[0])), "-o", "out=" + self.path("out.npy"),
                "-o", "h=" + self.path("h.npy"))
        self.assert_fails(p, "input 'residual'", "holds float16", "input 'x' (", "holds bfloat16")
        # add_relu is float32 only: a float16 file is refused as any other dtype, and --dtype
        # names the types it is built for
        a = self.uniform(64).astype(np.float16)
        p = run("add_relu", "--schedule", "fused", "--target", "cpu", self.save("a.npy", a),
                self.save("b.npy", a), "-o", "out=" + self.path("out.npy"))
        self.assert_fails(p, "add_relu/fused/cpu", "cannot read", "float16", "expected float32")
        p = run("add_relu", "--schedule", "fused", "--target", "cpu", "--dtype", "float16",
                self.save("a.npy", a), self.save("b.npy", a), "-o", "out=" + self.path("out.npy"))
        self.assert_fails(p, "add_relu/fused/cpu", "storage types float32, not float16")
        p = run("softmax", "--schedule", "block_row", "--target", "cpu", "--dtype", "float64",
                self.save("x.npy", x), "-o", "out=" + self.path("out.npy"))
        self.assert_fails(p, "unknown storage type 'float64'")

    def test_bad_file(self):
        with open(self.path("a.npy"), "wb") as f:
            f.write(b"not a numpy file")
        p = run("add_relu", "--schedule", "fused", "--target", "cpu", "a=" + self.path("a.npy"),
                self.save("b.npy", self.uniform(64)), "-o", "out=" + self.path("out.npy"))
        self.assert_fails(p, "add_relu/fused/cpu", "input 'a'", "cannot read")

    def test_unknown_names(self):
        p = run("add_relu", "--schedule", "nonsense", "--target", "cpu", self.save("a.npy", self.uniform(4)),
                self.save("b.npy", self.uniform(4)), "-o", "out=" + self.path("out.npy"))
        self.assert_fails(p, "unknown variant add_relu/nonsense/cpu")
        p = run("add_relu", "--schedule", "fused", "--target", "cpu", self.save("a.npy", self.uniform(4)),
                self.save("b.npy", self.uniform(4)), "-o", "result=" + self.path("out.npy"))
        self.assert_fails(p, "'result' is not an output of add_relu")

    def test_unwritable_output(self):
        p = run("add_relu", "--schedule", "fused", "--target", "cpu", self.save("a.npy", self.uniform(4)),
                self.save("b.npy", self.uniform(4)), "-o", "out=" + self.path("no_such_dir/out.npy"))
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("cannot write", p.stderr)


class BenchCommand(unittest.TestCase):
    def setUp(self):
        self.json = os.path.join(tempfile.mkdtemp(), "bench.json")

    def records(self):
        import json
        with open(self.json) as f:
            return json.load(f)

    def test_cupti_refused_on_cpu(self):
        # CUPTI traces CUDA kernels only: a CPU run with --cupti stops at once, saying why. Without
        # a GPU, --target auto means the CPU.
        no_gpu = "no usable CUDA device" in fuselab("bench", "--target", "cuda", "--pipeline", "-").stderr
        for target in ["cpu", "auto"] if no_gpu else ["cpu"]:
            p = fuselab("bench", "--target", target, "--cupti", "--pipeline", "add_relu")
            self.assertEqual(p.returncode, 1, p.stderr)
            self.assertIn("--cupti measures CUDA kernel launches", p.stderr)
            self.assertIn("target is cpu", p.stderr)
            self.assertEqual(p.stdout, "")

    def test_cupti_excludes_once(self):
        p = fuselab("bench", "--target", "cpu", "--once", "--cupti")
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("excludes", p.stderr)

    def test_once_calls_each_variant_once_unchecked(self):
        p = fuselab("list", "--target", "cpu", "--sizes")
        self.assertEqual(p.returncode, 0, p.stderr)
        lines = [l.split() for l in p.stdout.splitlines()]
        self.assertTrue(lines and all(len(f) == 5 and f[2] == "cpu" for f in lines), p.stdout)
        expected = sorted((f[1], f[3]) for f in lines if f[0] == "add_relu")
        p = fuselab("bench", "--target", "cpu", "--once", "--pipeline", "add_relu", "--json", self.json)
        self.assertEqual(p.returncode, 0, p.stderr)
        doc = self.records()
        self.assertTrue(doc["meta"]["once"])
        self.assertEqual(sorted((r["name"], r["size"]) for r in doc["records"]), expected)
        for r in doc["records"]:
            self.assertIsNone(r["median_us"])
            self.assertIsNone(r["host_us"])
            self.assertIsNone(r["timing"])
            self.assertIsNone(r["rel_err"])  # no check unless asked
        self.assertIn("one call each, not timed", p.stdout)

    def test_cpu_rows_are_timed_by_the_host(self):
        # On the CPU, median_us is the host figure, so host_us is the same number; the text table
        # shows both columns.
        p = fuselab("bench", "--target", "cpu", "--pipeline", "add_relu", "--schedule", "fused",
                    "--size", "4096", "--budget", "0.05", "--json", self.json)
        self.assertEqual(p.returncode, 0, p.stderr)
        (r,) = self.records()["records"]
        self.assertEqual(r["timing"], "host")
        self.assertGreater(r["host_us"], 0)
        self.assertEqual(r["median_us"], r["host_us"])
        self.assertEqual(r["min_us"], r["host_min_us"])
        self.assertLessEqual(r["host_min_us"], r["host_us"])
        self.assertGreaterEqual(r["host_repeats"], 5)
        self.assertEqual(r["repeats"], r["host_repeats"])
        self.assertGreaterEqual(r["host_calls_per_repeat"], 1)
        self.assertEqual(r["calls_per_repeat"], r["host_calls_per_repeat"])
        # A batch lasts at least 20 ms (calls per batch x the fastest batch's time per call, with
        # a margin for batches faster than the one that sized them).
        self.assertGreaterEqual(r["host_calls_per_repeat"] * r["host_min_us"], 0.5 * 20e3)
        header = next(l for l in p.stdout.splitlines() if l.startswith("pipeline"))
        self.assertIn(" us ", header)
        self.assertIn("host us", header)

    def test_once_checks_when_asked(self):
        p = fuselab("bench", "--target", "cpu", "--once", "--check", "--pipeline", "add_relu",
                    "--schedule", "fused", "--schedule", "unfused", "--size", "1001", "--json", self.json)
        self.assertEqual(p.returncode, 0, p.stderr)
        rs = self.records()["records"]
        self.assertEqual(sorted(r["name"] for r in rs), ["fused", "unfused"])
        for r in rs:
            self.assertTrue(r["ok"])
            self.assertLessEqual(r["rel_err"], 1e-6)


class OverheadCommand(unittest.TestCase):
    def test_each_layer_is_timed_after_a_checked_answer(self):
        # `fuselab overhead`: add_relu/fused/cpu's answer checked first (a wrong one exits 1),
        # then each C++ layer's host time per call as call_overhead records.
        import json
        out = os.path.join(tempfile.mkdtemp(), "overhead.json")
        p = fuselab("overhead", "--target", "cpu", "--n", "1031", "--calls", "50", "--repeats",
                    "3", "--json", out)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(out) as f:
            records = json.load(f)["records"]
        # First the choice's own cost: fuselab::choose for softmax at its first call, at new
        # shapes (one sample each) and at a seen shape.
        choices = [r for r in records if r["kind"] == "choice_cost"]
        self.assertEqual([r["name"] for r in choices],
                         ["C++ choose: first call in the process", "C++ choose: a new shape",
                          "C++ choose: a seen shape"])
        self.assertEqual(records[:3], choices)
        for r in choices:
            self.assertEqual((r["workload"], r["device"]), ("softmax", "cpu"))
            self.assertGreater(r["host_us"], 0)
            self.assertIn(f"{r['name'][4:]} ", p.stdout)
        self.assertEqual(len(choices[1]["samples_us"]), 200)
        records = records[3:]
        self.assertEqual([r["name"] for r in records],
                         ["C++ halide argv", "C++ fuselab::invoke", "C++ CallPlan::invoke",
                          "C++ CallPlan::invoke (fresh outputs)"])
        for r in records:
            self.assertEqual((r["kind"], r["workload"], r["size"], r["device"]),
                             ("call_overhead", "add_relu", "1031", "cpu"))
            self.assertEqual(len(r["samples_us"]), 3)
            self.assertGreater(r["host_us"], 0)
            self.assertIn(f"{r['name'][4:]} ", p.stdout)

    def test_bad_arguments_are_refused(self):
        p = fuselab("overhead", "--target", "cpu", "--n", "0")
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("--n", p.stderr)


class Harness(unittest.TestCase):
    """tests/harness.py's sanitizer check, without a sanitizer: a report fails a run whatever its
    exit status, a clean refusal (exit 1, words on stderr) does not."""

    LEAK = "==1==ERROR: LeakSanitizer: detected memory leaks"

    def done(self, returncode, stderr="", stdout=""):
        return subprocess.CompletedProcess(["fuselab", "run"], returncode, stdout, stderr)

    def test_reports_are_flagged_whatever_the_exit_status(self):
        for rc, err in [(1, self.LEAK + "\n\nDirect leak of 64 byte(s)\nSUMMARY: AddressSanitizer: 64 "
                             "byte(s) leaked in 1 allocation(s)."),
                        (0, "io/npy.cpp:88:12: runtime error: signed integer overflow: 2147483647 + 1"),
                        (1, "==7==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x6020"),
                        (0, "SUMMARY: UndefinedBehaviorSanitizer: undefined-behavior io/png.cpp:3:1"),
                        (1, "WARNING: ThreadSanitizer: data race (pid=9)"),
                        (harness.SANITIZER_EXIT, ""),
                        (harness.SANITIZER_EXIT, "add_relu/fused/cpu: input 'a': cannot read")]:
            with self.subTest(rc=rc, stderr=err[:40]):
                p = self.done(rc, err)
                self.assertIsNotNone(harness.sanitizer_report(p))
                with self.assertRaises(harness.SanitizerReport) as e:
                    harness.check_sanitizer(p)
                if err:
                    self.assertIn(err.splitlines()[0], str(e.exception))  # the report, quoted
                self.assertIsInstance(e.exception, AssertionError)  # a failure, not an error

    def test_a_real_process_with_a_report_is_flagged(self):
        script = 'echo "%s" >&2; exit 1' % self.LEAK
        with self.assertRaises(harness.SanitizerReport) as e:
            harness.run_fuselab("sh", "-c", script)
        self.assertIn("ERROR: LeakSanitizer: detected memory leaks", str(e.exception))
        with self.assertRaises(harness.SanitizerReport):
            harness.run_fuselab("sh", "-c", "exit %d" % harness.SANITIZER_EXIT)

    def test_a_clean_refusal_is_not_flagged(self):
        for rc, err in [(1, "add_relu/auto/cpu: refuses this size: the Adams2019 autoscheduler "
                            "tuned it for out 16777216"),
                        (1, "add_relu/fused/cpu: input 'a': cannot read a.npy: not a .npy file"),
                        (0, "")]:
            with self.subTest(rc=rc, stderr=err[:40]):
                p = self.done(rc, err)
                self.assertIsNone(harness.sanitizer_report(p))
                self.assertIs(harness.check_sanitizer(p), p)
        p = harness.run_fuselab("sh", "-c", "echo 'add_relu/fused/cpu: missing input' >&2; exit 1")
        self.assertEqual((p.returncode, p.stderr.strip()), (1, "add_relu/fused/cpu: missing input"))


if __name__ == "__main__":
    FUSELAB = os.path.abspath(sys.argv.pop(1))
    sys.exit(harness.main())
