#!/usr/bin/env bash
# s36's last GPU call: the build as committed after a.sh (0e9ee28 and after: rsqrt only in
# warp_regs_1k of rmsnorm_residual and layernorm, the block forms' IEEE 1 / sqrt back; the H100
# table's short rows in measured.json): fuselab_tests over every CUDA variant of the row
# pipelines and the choice (8 shards), then the CLI sweep of the row pipelines' CUDA variants.
set -uo pipefail
bash gpu/carry.sh --unpack || exit 1
export FUSELAB_REQUIRE_CUDA=1 PYTHONUNBUFFERED=1 FUSELAB_LIBRARY=python/fuselab/libfuselab.so
D=/tmp/d
mkdir -p $D
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv
    cat .carry/commit .carry/status
} > "$D/machine.txt" 2>&1
pack() { tar czf "$OUT/d.tar.gz" -C /tmp d; }
empty=$(mktemp -d)
export FUSELAB_TUNING_FILE=$empty/tuning.json
filter='Runtime.*:ChooseTest.*:CostModel.*:Measured.*:*softmax*cuda*:*layernorm*cuda*:*rmsnorm*cuda*'
for i in 0 1 2 3 4 5 6 7; do
    GTEST_TOTAL_SHARDS=8 GTEST_SHARD_INDEX=$i timeout 150 .carry/fuselab_tests --gtest_filter="$filter" \
        > $D/tests_$i.log 2>&1 &
done
wait
for i in 0 1 2 3 4 5 6 7; do
    echo "fuselab_tests shard $i: $(grep -E '^\[  (PASSED|FAILED) ' $D/tests_$i.log | tr '\n' ' ')" >> $D/log.txt
    grep -E "^\[  FAILED" $D/tests_$i.log | head -10 >> $D/log.txt
done
pack
timeout 150 python3 tests/test_cli_sweep.py .carry/fuselab --target cuda --no-default-size \
    --pipeline softmax --pipeline layernorm --pipeline rmsnorm_residual --jobs 12 > $D/sweep_rows.log 2>&1
echo "CLI sweep (the row pipelines' CUDA variants, sampled shapes): exit $? at $SECONDS s: $(tail -1 $D/sweep_rows.log)" >> $D/log.txt
grep -E "^FAIL|^summary" $D/sweep_rows.log | head -12 >> $D/log.txt
pack
cat $D/log.txt
