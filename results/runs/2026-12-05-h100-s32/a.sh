#!/usr/bin/env bash
# s32 call a (carry .carry: c22c014's build; its CUDA variants are s29's, its runtime adds the
# CPU's element-count feature, target-independent code): s30's prepared call, unchanged
# (results/runs/2026-12-05-h200-s30/a.sh): fuselab_tests in full, the CLI sweep of s29's 12
# adjacent variants, every CUDA variant through `fuselab run` at sampled shapes, and the choice's
# cost on the H200 host.
set -uo pipefail
bash gpu/carry.sh --unpack || exit 1
export FUSELAB_REQUIRE_CUDA=1 PYTHONUNBUFFERED=1 FUSELAB_LIBRARY=python/fuselab/libfuselab.so
D=/tmp/a
mkdir -p $D
{ date -u +%Y-%m-%dT%H:%M:%SZ
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
  grep -m1 "model name" /proc/cpuinfo; nproc; git rev-parse HEAD; } > "$D/machine.txt" 2>&1
pack() { tar czf "$OUT/a.tar.gz" -C /tmp a; }
timeout 150 .carry/fuselab_tests > $D/tests.log 2>&1
echo "fuselab_tests: exit $? at $SECONDS s: $(grep -E '^\[  (PASSED|FAILED) ' $D/tests.log | tr '\n' ' ')" >> $D/log.txt
grep -E "^\[  FAILED" $D/tests.log | head -20 >> $D/log.txt
pack
vs=""
for p in softmax rmsnorm_residual layernorm; do
    for d in float32 bfloat16 float16; do vs+=" --variant $p/adjacent_warp/$d"; done
done
for d in float32 bfloat16 float16; do vs+=" --variant layernorm/adjacent_row/$d"; done
vs=${vs//\/float32/}
sizes=""
for s in 1x3 7x2 33x5 257x9 1001x3 1417x3 2049x3 4096x3 4097x2 12345x2 65537x2; do sizes+=" --size $s"; done
# shellcheck disable=SC2086
timeout 100 python3 tests/test_cli_sweep.py .carry/fuselab --target cuda $vs $sizes \
    --no-default-size --jobs 14 > $D/sweep_new.log 2>&1
echo "CLI sweep (s29's 12 variants): exit $? at $SECONDS s: $(tail -1 $D/sweep_new.log)" >> $D/log.txt
grep -E "^FAIL" $D/sweep_new.log | head -10 >> $D/log.txt
pack
timeout 200 python3 tests/test_cli_sweep.py .carry/fuselab --target cuda --no-default-size \
    --jobs 12 > $D/sweep_sampled.log 2>&1
echo "CLI sweep (every CUDA variant, sampled shapes): exit $? at $SECONDS s: $(tail -1 $D/sweep_sampled.log)" >> $D/log.txt
grep -E "^FAIL|^summary" $D/sweep_sampled.log | head -12 >> $D/log.txt
pack
timeout 40 .carry/fuselab overhead --target cuda --json $D/overhead.json > $D/overhead.log 2>&1
echo "overhead (cuda): exit $? at $SECONDS s" >> $D/log.txt
pack
