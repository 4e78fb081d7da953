#!/usr/bin/env bash
# s21's third call on the H200 (after `bash gpu/carry.sh`; carry .carry): the shipped build. The
# banded candidates are gone; every CUDA variant's device code is byte-identical to b/'s but
# rmsnorm_residual's chunked_row (h written by its first kernel), which a/ and b/ tested and
# timed. The Python package's calls are new (python/fuselab: one C call per call on torch
# tensors, the torch ops' C++ fast path).
#   1. fuselab_tests over chunked_row;
#   2. the torch ops' C++ kernels built on first import, as a user's would be;
#   3. the host cost of a call, each layer (peers/call_overhead.py), with the C++ kernels and with
#      the Python ones (FUSELAB_TORCH_EXT=0), and fuselab overhead (C++);
#   4. tests/test_torch_ext.py, tests/test_torch.py and tests/test_rows.py on CUDA;
#   5. the choice at row shapes drawn at random, with a seed no session has used, cut at 470 s
#      (tools/choice_check.py --random 8: 24 cases), in what time is left.
set -uo pipefail
bash gpu/carry.sh --unpack || exit 1
export FUSELAB_REQUIRE_CUDA=1 PYTHONUNBUFFERED=1 FUSELAB_LIBRARY=python/fuselab/libfuselab.so
export FUSELAB_TORCH_EXT_DIR=/tmp/torch_ext
D=/tmp/c
mkdir -p $D
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    grep -m1 "model name" /proc/cpuinfo; nproc
    python3 -c 'import torch, sys; print("python", sys.version.split()[0], "torch", torch.__version__)'
    cat .carry/commit .carry/status
} > "$OUT/machine.txt" 2>&1
timeout 60 .carry/fuselab_tests --gtest_filter='*chunked_row*' > $D/tests.log 2>&1
echo "chunked_row tests: exit $? at $SECONDS s: $(grep -E '^\[  (PASSED|FAILED)' $D/tests.log | tr '\n' ' ')" >> "$OUT/log.txt"
t0=$SECONDS
timeout 240 python3 -c 'import sys; sys.path.insert(0, "python"); import fuselab.torch_ops as T; print("backend", T.BACKEND, T.FALLBACK_REASON)' \
    > $D/build.log 2>&1
echo "build: exit $? in $((SECONDS - t0)) s: $(grep backend $D/build.log)" >> "$OUT/log.txt"
timeout 90 python3 peers/call_overhead.py --device cuda --json $D/call_overhead.json > $D/call_overhead.txt 2>&1
echo "call_overhead.py (c++): exit $? at $SECONDS s" >> "$OUT/log.txt"; cat $D/call_overhead.txt >> "$OUT/log.txt"
FUSELAB_TORCH_EXT=0 timeout 90 python3 peers/call_overhead.py --device cuda --json $D/call_overhead_python.json \
    > $D/call_overhead_python.txt 2>&1
echo "call_overhead.py (python): exit $? at $SECONDS s" >> "$OUT/log.txt"; cat $D/call_overhead_python.txt >> "$OUT/log.txt"
timeout 60 .carry/fuselab overhead --target cuda --json $D/overhead_cpp.json > $D/overhead_cpp.txt 2>&1
echo "overhead C++: exit $? at $SECONDS s" >> "$OUT/log.txt"; cat $D/overhead_cpp.txt >> "$OUT/log.txt"
for t in test_torch_ext test_torch test_rows; do
    timeout 200 python3 tests/$t.py > $D/${t}_tests.log 2>&1
    echo "$t.py: exit $? at $SECONDS s: $(tail -1 $D/${t}_tests.log)" >> "$OUT/log.txt"
done
grep -hE "^(FAIL|ERROR):|Error:|AssertionError" $D/*_tests.log | head -30 >> "$OUT/log.txt"
tar czf "$OUT/c.tar.gz" -C /tmp c
left=$((470 - SECONDS))
if [ $left -gt 60 ]; then
    timeout $left python3 tools/choice_check.py .carry/fuselab --target cuda --random 8 --seed 2112 \
        --json $D/choice_check.json > $D/choice_check.txt 2>&1
    echo "choice_check: exit $? at $SECONDS s" >> "$OUT/log.txt"
    tail -45 $D/choice_check.txt >> "$OUT/log.txt"
fi
tar czf "$OUT/c.tar.gz" -C /tmp c
cat "$OUT/log.txt"
