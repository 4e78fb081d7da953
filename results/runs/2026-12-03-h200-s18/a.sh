#!/usr/bin/env bash
# s18's first call on the H200 (after `bash gpu/carry.sh`; carry .carry): the torch ops' C++
# kernels (python/fuselab/_torch_ops.cpp), built there on first import as a user's would be.
#   1. the build: `import fuselab.torch_ops` into a fresh cache, timed;
#   2. the host cost of a call, each layer, with the C++ kernels and then with the Python ones
#      (FUSELAB_TORCH_EXT=0), each in a process of its own; the C++ layers (fuselab overhead);
#   3. tests/test_torch_ext.py, tests/test_torch.py and tests/test_rows.py on CUDA.
set -uo pipefail
bash gpu/carry.sh --unpack || exit 1
export FUSELAB_REQUIRE_CUDA=1 PYTHONUNBUFFERED=1 FUSELAB_LIBRARY=python/fuselab/libfuselab.so
export FUSELAB_TORCH_EXT_DIR=/tmp/torch_ext
D=/tmp/a
mkdir -p $D
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    grep -m1 "model name" /proc/cpuinfo; nproc
    python3 -c 'import torch, sys; print("python", sys.version.split()[0], "torch", torch.__version__)'
    which c++ g++ ninja; c++ --version | head -1
    cat .carry/commit .carry/status
} > "$OUT/machine.txt" 2>&1
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
timeout 200 python3 tests/test_torch_ext.py > $D/torch_ext_tests.log 2>&1
echo "test_torch_ext.py: exit $? at $SECONDS s: $(tail -1 $D/torch_ext_tests.log)" >> "$OUT/log.txt"
timeout 200 python3 tests/test_torch.py > $D/torch_tests.log 2>&1
echo "test_torch.py: exit $? at $SECONDS s: $(tail -1 $D/torch_tests.log)" >> "$OUT/log.txt"
timeout 120 python3 tests/test_rows.py > $D/rows_tests.log 2>&1
echo "test_rows.py: exit $? at $SECONDS s: $(tail -1 $D/rows_tests.log)" >> "$OUT/log.txt"
grep -hE "^(FAIL|ERROR):|Error:|AssertionError" $D/*tests.log | head -30 >> "$OUT/log.txt"
tar czf "$OUT/a.tar.gz" -C /tmp a
cat "$OUT/log.txt"
