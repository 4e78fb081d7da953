#!/usr/bin/env bash
# s23's seventh call: a.sh again (its checks and issue 28's host costs) on the build where the
# register form's single-output pipelines (softmax, layernorm) cut their output by the 16-byte
# vector first in the aligned rungs (rows_forms.h: warp_regs_output). a.sh's header follows.
# a.sh checks the padded register form (warp_regs_1k, row_pad=1024) and times the host:
#   1. fuselab_tests over the row pipelines (every variant against float64).
#   2. The CLI's CUDA sweep: every
#      warp_regs_1k variant at every shape of the row list (--all-shapes: the padding's rungs, cut
#      inside and at their tops, rows of 1, 7 and 8); and at rows on each side of each rung.
#   3. tests/test_rows.py (Python and torch, CUDA tensors included: NaN and inf rows at N = 7 and 1000).
#   4. peers/call_overhead.py and `fuselab overhead --target cuda` (C++), one after the other in
#      this call: the call_overhead records of one run (issue 28).
set -uo pipefail
bash gpu/carry.sh --unpack || exit 1
export FUSELAB_REQUIRE_CUDA=1 PYTHONUNBUFFERED=1 FUSELAB_LIBRARY=python/fuselab/libfuselab.so
export FUSELAB_TORCH_EXT_DIR=/tmp/torch_ext
D=/tmp/e
mkdir -p $D
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    grep -m1 "model name" /proc/cpuinfo; nproc
    python3 -c 'import torch, sys; print("python", sys.version.split()[0], "torch", torch.__version__)'
    cat .carry/commit .carry/status
} > "$OUT/machine.txt" 2>&1
pack() { tar czf "$OUT/e.tar.gz" -C /tmp e; }
timeout 90 .carry/fuselab_tests --gtest_filter='*softmax*:*rmsnorm*:*layernorm*:Rows/*' > $D/rows_tests.log 2>&1
echo "fuselab_tests (rows): exit $? at $SECONDS s: $(grep -E '^\[  (PASSED|FAILED) ' $D/rows_tests.log | tr '\n' ' ')" >> "$OUT/log.txt"
pack
wr=""
for p in softmax rmsnorm_residual layernorm; do
    for d in "" /bfloat16 /float16; do wr+=" --variant $p/warp_regs_1k$d"; done
done
# shellcheck disable=SC2086
timeout 100 python3 tests/test_cli_sweep.py .carry/fuselab --target cuda $wr --all-shapes --jobs 12 \
    > $D/sweep_wr_all.log 2>&1
echo "CLI sweep (warp_regs_1k, every shape): exit $? at $SECONDS s: $(tail -1 $D/sweep_wr_all.log)" >> "$OUT/log.txt"
sizes=""
for s in 2x3 5x3 16x7 184x50 248x5 255x4 256x3 264x3 511x3 512x2 513x2 760x3 767x2 769x2 776x3 1017x2 1023x2 1024x3; do
    sizes+=" --size $s"
done
# shellcheck disable=SC2086
timeout 100 python3 tests/test_cli_sweep.py .carry/fuselab --target cuda $wr $sizes --no-default-size \
    --jobs 12 > $D/sweep_wr_rungs.log 2>&1
echo "CLI sweep (warp_regs_1k, each side of each rung): exit $? at $SECONDS s: $(tail -1 $D/sweep_wr_rungs.log)" >> "$OUT/log.txt"
pack
timeout 120 python3 tests/test_rows.py > $D/rows_python.log 2>&1
echo "tests/test_rows.py: exit $? at $SECONDS s: $(tail -1 $D/rows_python.log)" >> "$OUT/log.txt"
pack
timeout 90 python3 peers/call_overhead.py --device cuda --repeats 5 --json $D/call_overhead.json \
    > $D/call_overhead.txt 2>&1
echo "call_overhead.py: exit $? at $SECONDS s" >> "$OUT/log.txt"
timeout 60 .carry/fuselab overhead --target cuda --json $D/overhead_cpp.json > $D/overhead_cpp.txt 2>&1
echo "fuselab overhead (C++): exit $? at $SECONDS s" >> "$OUT/log.txt"
cat $D/call_overhead.txt $D/overhead_cpp.txt >> "$OUT/log.txt"
pack
cat "$OUT/log.txt"
