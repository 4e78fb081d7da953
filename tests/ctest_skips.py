#!/usr/bin/env python3
"""Prints every test that CTest's last run skipped, with the reason the test printed (CTest itself
prints none). `./fuselab test` runs it after each CTest run.

    python3 tests/ctest_skips.py BUILD_DIR
"""
import os
import re
import sys

# The lines a skip's reason sits on: GoogleTest's "FILE:LINE: Skipped" is followed by it; the
# Python scripts print "SKIP: reason"; unittest -v prints "... skipped 'reason'".
REASONS = [re.compile(r": Skipped\n(.+)"), re.compile(r"^SKIP: (.+)", re.M),
           re.compile(r"skipped '(.+)'")]


def skipped(log_text):
    """[(test name, [reasons])] of the skipped tests in a LastTest.log."""
    out = []
    for block in re.split(r"\n(?=\d+/\d+ Testing: )", log_text):
        m = re.match(r"\d+/\d+ Testing: (\S+)", block)
        if not m or not re.search(r"Skip regular expression found|Skip return code|Test Skipped", block):
            continue
        reasons = []
        for rx in REASONS:
            for r in rx.findall(block):
                if r.strip() and r.strip() not in reasons:
                    reasons.append(r.strip())
        out.append((m.group(1), reasons or ["(no reason printed)"]))
    return out


def main():
    log = os.path.join(sys.argv[1], "Testing", "Temporary", "LastTest.log")
    if not os.path.exists(log):
        return 0
    with open(log, errors="replace") as f:
        tests = skipped(f.read())
    if tests:
        print(f"{len(tests)} tests skipped, with their reasons:")
        for name, reasons in tests:
            more = f" (and {len(reasons) - 1} more)" if len(reasons) > 1 else ""
            print(f"  {name}: {reasons[0][:240]}{more}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
