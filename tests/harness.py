"""What every Python test script of fuselab shares, so that every failure shows:

- run_fuselab(exe, *args): `fuselab` as a subprocess (capture_output, text), which raises
  SanitizerReport when the process exited with SANITIZER_EXIT (86, what the sanitizer build's
  ASAN_OPTIONS / UBSAN_OPTIONS set with exitcode=86) or printed a sanitizer's report, so that a
  report is a failure even where the test expected the run to fail (a refused input exits 1).
- Skips: a script whose whole run is skipped prints `SKIP: <reason>` and exits SKIP_EXIT (77,
  CTest's SKIP_RETURN_CODE). With FUSELAB_REQUIRE_CUDA=1 in the environment, a CUDA case that
  would skip (no usable GPU, PyTorch sees none, no CUDA variants built) fails instead:
  cuda_skip(reason) gives the exception to raise, skip_script(reason, cuda=True) ends a script.
- main(): unittest.main for the unittest scripts, which prints every skip's reason at the end,
  then a last line `N passed, N failed, N skipped`, and returns 0, 1 (anything failed, or nothing
  ran) or 77 (every test skipped).
"""
import os
import re
import subprocess
import sys
import unittest

SANITIZER_EXIT = 86
SKIP_EXIT = 77
REQUIRE_CUDA_ENV = "FUSELAB_REQUIRE_CUDA"

# What ASan, LSan, UBSan and TSan print in a report (UBSan: "file.cpp:12:5: runtime error: ...").
SANITIZER_MARKERS = (
    "ERROR: AddressSanitizer",
    "ERROR: LeakSanitizer",
    "runtime error:",
    "SUMMARY: AddressSanitizer",
    "SUMMARY: UndefinedBehaviorSanitizer",
    "SUMMARY: LeakSanitizer",
    "ThreadSanitizer",
    "ERROR: MemorySanitizer",
)
_REPORT_LINES = 40  # lines of a report quoted in the failure's message


class SanitizerReport(AssertionError):
    """A sanitizer reported on a fuselab process (an AssertionError, so unittest counts it as a
    failure)."""


def sanitizer_report(proc):
    """The report in a finished process (a subprocess.CompletedProcess or anything with
    returncode, stdout and stderr), quoted, or None when there is none."""
    text = "\n".join(s if isinstance(s, str) else s.decode(errors="replace")
                     for s in (proc.stderr, proc.stdout) if s)
    lines = text.splitlines()
    first = next((i for i, line in enumerate(lines) if any(m in line for m in SANITIZER_MARKERS)),
                 None)
    if first is None and proc.returncode != SANITIZER_EXIT:
        return None
    why = []
    if proc.returncode == SANITIZER_EXIT:
        why.append(f"exit status {SANITIZER_EXIT} (the sanitizers' exitcode)")
    if first is not None:
        why.append("a sanitizer report on its output")
    quoted = lines[first:first + _REPORT_LINES] if first is not None else lines[-_REPORT_LINES:]
    more = len(lines) - (first or 0) - len(quoted)
    body = "\n".join("    | " + line for line in quoted)
    if more > 0:
        body += f"\n    | ... ({more} more lines)"
    return " and ".join(why) + (":\n" + body if body else " (no output)")


def check_sanitizer(proc, cmd=None):
    """Raises SanitizerReport when `proc` holds a sanitizer's report; returns proc otherwise."""
    report = sanitizer_report(proc)
    if report is not None:
        args = cmd if cmd is not None else getattr(proc, "args", None)
        if isinstance(args, (list, tuple)):
            args = " ".join(str(a) for a in args)
        raise SanitizerReport(f"sanitizer: {args or 'the process'}: {report}")
    return proc


def run_fuselab(exe, *args, **kwargs):
    """subprocess.run([exe, *args], capture_output=True, text=True, **kwargs), then
    check_sanitizer: every run of the fuselab executable goes through here."""
    proc = subprocess.run([exe, *args], capture_output=True, text=True, **kwargs)
    return check_sanitizer(proc)


# ---- variants ----------------------------------------------------------------------------------

LIMITS = (None, "autoscheduled", "one_shape", "row_length")
# What a refusal under each declared limit says (besides the variant's name).
LIMIT_WORDING = {
    "autoscheduled": ("refuses this size", "autoscheduler"),
    "one_shape": ("kernel parameters, so it runs one shape only",),
    "row_length": ("holds a row on chip, so it runs rows of at most",),
}


def variant_limit(record):
    """(limit, where it came from) of a variant record of `fuselab list --json` (or
    fuselab.variants()): its "limit" field where present (None or one of LIMITS),
    else derived from the older fields: a non-empty "autoscheduler" is "autoscheduled", an
    argument taken as kernel "parameters" is "one_shape"."""
    if "limit" in record:
        return record["limit"], "limit"
    if record.get("autoscheduler"):
        return "autoscheduled", "autoscheduler field"
    if any("parameters" in a for a in record.get("arguments", [])):
        return "one_shape", "arguments' parameters"
    return None, "no limit field, none derived"


def refusal_problem(name, limit, message, at_default=False):
    """None when `message` (a failed call's) is the refusal that the variant `name`'s declared
    `limit` words, else what is wrong with it."""
    # A row held on chip may refuse the workload's default size (rows longer than it holds); an
    # autoscheduled variant must run the size it was tuned for, and the others every size.
    if at_default and limit != "row_length":
        return f"{name} refused its own default size: {message}"
    if limit is None:
        return f"{name} declares no limit, so it must run every size, but failed: {message}"
    missing = [w for w in (name,) + LIMIT_WORDING[limit] if w not in message]
    if missing:
        return (f"{name} declares the limit '{limit}', but its refusal lacks "
                f"{', '.join(repr(m) for m in missing)}: {message}")
    return None


# ---- skips -------------------------------------------------------------------------------------

class CudaRequired(AssertionError):
    """A CUDA case could not run while FUSELAB_REQUIRE_CUDA=1."""


def cuda_required():
    return os.environ.get(REQUIRE_CUDA_ENV, "") not in ("", "0")


def require_cuda_message(reason):
    return (f"{REQUIRE_CUDA_ENV}=1 requires a GPU, but none was usable: {reason}")


def require_cuda(reason):
    """For a CUDA case that cannot run for `reason`: raises CudaRequired under
    FUSELAB_REQUIRE_CUDA=1, else returns the reason (the caller skips with it)."""
    if cuda_required():
        raise CudaRequired(require_cuda_message(reason))
    return reason


def cuda_skip(reason):
    """The exception a unittest CUDA case raises when it cannot run: unittest.SkipTest(reason),
    or CudaRequired under FUSELAB_REQUIRE_CUDA=1. `raise harness.cuda_skip(why)` works in a test
    method and in setUpClass (where CudaRequired fails the class's tests)."""
    if cuda_required():
        return CudaRequired(require_cuda_message(reason))
    return unittest.SkipTest(reason)


def summary_line(passed, failed, skipped):
    return f"{passed} passed, {failed} failed, {skipped} skipped"


def skip_script(reason, cuda=False, skipped=1):
    """Ends a script whose whole run is skipped: `SKIP: reason`, the summary line, exit 77; a
    CUDA skip under FUSELAB_REQUIRE_CUDA=1 is a failure instead (exit 1)."""
    if cuda and cuda_required():
        print("FAIL: " + require_cuda_message(reason), flush=True)
        print(summary_line(0, 1, 0), flush=True)
        sys.exit(1)
    print("SKIP: " + reason, flush=True)
    print(summary_line(0, 0, skipped), flush=True)
    sys.exit(SKIP_EXIT)


# ---- unittest ----------------------------------------------------------------------------------

def _test_ids(suite):
    out = []
    for t in suite:
        if isinstance(t, unittest.TestSuite):
            out += _test_ids(t)
        elif t is not None:
            out.append(t.id())
    return out


class _Runner(unittest.TextTestRunner):
    """Notes the ids of the tests it is given before running them (a suite drops them as it
    goes)."""

    def run(self, test):
        self.ids = _test_ids(test)
        return super().run(test)


class _Result(unittest.TextTestResult):
    """Also keeps each test method's outcome and every skip's reason. A method fails when it or
    any of its subtests failed or errored; it is skipped when it called skipTest, or when every
    subtest it ran skipped; else it passed."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.outcome = {}       # test id -> "pass" | "fail" | "skip"
        self.holders = []       # (description, "fail" | "skip"): setUpClass and the like
        self.skip_reasons = []  # (test id, reason)
        self._now = {}          # test id -> {"fail", "skip", "sub_skip", "sub_pass", "pass"}

    def _note(self, test, what):
        if isinstance(test, unittest.case._SubTest):
            test = test.test_case
            what = {"skip": "sub_skip", "pass": "sub_pass"}.get(what, what)
        if not isinstance(test, unittest.TestCase):  # an _ErrorHolder: "setUpClass (...)"
            self.holders.append((str(test), "skip" if what == "skip" else "fail"))
            return
        self._now.setdefault(test.id(), set()).add(what)

    def startTest(self, test):
        super().startTest(test)
        self._now[test.id()] = set()

    def stopTest(self, test):
        super().stopTest(test)
        seen = self._now.pop(test.id(), set())
        if "fail" in seen:
            status = "fail"
        elif "skip" in seen:
            status = "skip"
        elif "pass" in seen or "sub_pass" in seen:
            status = "pass"
        elif "sub_skip" in seen:
            status = "skip"
        else:
            status = "pass"
        self.outcome[test.id()] = status

    def addSuccess(self, test):
        super().addSuccess(test)
        self._note(test, "pass")

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self._note(test, "fail")

    def addError(self, test, err):
        super().addError(test, err)
        self._note(test, "fail")

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        self._note(test, "fail")

    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err)
        self._note(test, "pass")

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self.skip_reasons.append((str(test), reason))
        self._note(test, "skip")

    def addSubTest(self, test, subtest, err):
        super().addSubTest(test, subtest, err)
        self._note(subtest, "pass" if err is None else "fail")


def main(module="__main__", argv=None, ignore_skipped_classes=(), before_summary=None):
    """unittest.main(verbosity=2) that returns 0 (something passed, nothing failed), 1 (anything
    failed or errored, or nothing ran) or 77 (every test skipped), having printed every skip's
    reason and then, as the last line, `N passed, N failed, N skipped` (test methods; a class
    skipped in setUpClass counts each of its tests). ignore_skipped_classes: class names whose
    class-level skip is by design and counts for nothing. before_summary: a callable printing
    lines to come just before the summary."""
    runner = _Runner(verbosity=2, resultclass=_Result)
    prog = unittest.main(module=module, argv=argv, exit=False, testRunner=runner)
    r = prog.result
    ids = runner.ids
    outcome = dict(r.outcome)
    extra_failed = 0
    for desc, status in r.holders:
        m = re.match(r"^(setUpClass|tearDownClass|setUpModule|tearDownModule) \((.+)\)$", desc)
        where = m.group(2) if m else None
        members = [i for i in ids if where and (i.startswith(where + ".") or i == where)]
        cls = where.rsplit(".", 1)[-1] if where else None
        if status == "skip" and cls in ignore_skipped_classes:
            continue
        if m and m.group(1).startswith("setUp") and members:
            for i in members:
                outcome.setdefault(i, status)
        else:
            extra_failed += status == "fail"
    passed = sum(1 for s in outcome.values() if s == "pass")
    failed = sum(1 for s in outcome.values() if s == "fail") + extra_failed
    skipped = sum(1 for s in outcome.values() if s == "skip")
    sys.stderr.flush()
    reasons = [(t, why) for t, why in r.skip_reasons
               if not any(re.search(rf"\.{re.escape(c)}[.)]", t) for c in ignore_skipped_classes)]
    for t, why in reasons:
        print(f"skipped: {t}: {why}")
    if failed or not r.wasSuccessful():
        failed = max(failed, 1)
        rc = 1
    elif passed == 0 and skipped > 0:
        print(f"SKIP: every test skipped ({skipped}): " + "; ".join(sorted({w for _, w in reasons})))
        rc = SKIP_EXIT
    elif passed == 0:
        print("FAIL: no test ran")
        rc, failed = 1, 1
    else:
        rc = 0
    if before_summary:
        before_summary()
    sys.stdout.flush()
    print(summary_line(passed, failed, skipped), flush=True)
    return rc


def torch_cuda_unusable(torch, fuselab):
    """Why PyTorch and fuselab cannot both use a CUDA device here, or None."""
    if not torch.cuda.is_available():
        return "PyTorch sees no CUDA device"
    status = fuselab.cuda_status()
    if not status["usable"]:
        return "fuselab sees no usable CUDA device: " + status["reason"]
    if not any(v["target"] == "cuda" for v in fuselab.variants()):
        return "this build has no CUDA variants"
    return None
