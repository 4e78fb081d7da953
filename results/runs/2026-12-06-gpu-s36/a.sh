#!/usr/bin/env bash
# s36's first GPU call: this session's build (the row statistics' instruction cuts: identity
# inits folded, a shuffle tree of 8, the hardware's reciprocal and rsqrt) checked and timed
# against the build before it (HEAD 2494751's libfuselab.so, carried as .carry/old_lib.zst).
# fuselab_tests over every CUDA variant (8 shards); the CLI sweep of every CUDA variant at sampled
# shapes; test_python.py and test_torch.py on CUDA; then tools/row_grid.py over every row
# strategy at N = 256, 1024, 4096, 16384 (2^26 elements, the suite's), three types, the new
# library and the old one alternately, pipeline by pipeline, in the time left.
set -uo pipefail
bash gpu/carry.sh --unpack || exit 1
zstd=zstd; command -v zstd > /dev/null || zstd=.carry/zstd
mkdir -p /tmp/old && $zstd -dc --long=30 .carry/old_lib.zst > /tmp/old/libfuselab.so || exit 1
export FUSELAB_REQUIRE_CUDA=1 PYTHONUNBUFFERED=1 FUSELAB_LIBRARY=python/fuselab/libfuselab.so
export FUSELAB_TORCH_EXT_DIR=/tmp/torch_ext
D=/tmp/a
mkdir -p $D
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    grep -m1 "model name" /proc/cpuinfo; nproc
    python3 -c 'import torch, sys; print("python", sys.version.split()[0], "torch", torch.__version__)'
    cat .carry/commit .carry/status
} > "$D/machine.txt" 2>&1
pack() { tar czf "$OUT/a.tar.gz" -C /tmp a; }
empty=$(mktemp -d)
export FUSELAB_TUNING_FILE=$empty/tuning.json
filter='Dtype.*:Runtime.*:Timing.*:Ledger.*:Concurrency.*:ChooseTest.*:CostModel.*:Measured.*:CallPlan.*:*cuda*'
for i in 0 1 2 3 4 5 6 7; do
    GTEST_TOTAL_SHARDS=8 GTEST_SHARD_INDEX=$i timeout 200 .carry/fuselab_tests --gtest_filter="$filter" \
        > $D/tests_$i.log 2>&1 &
done
wait
for i in 0 1 2 3 4 5 6 7; do
    echo "fuselab_tests shard $i: $(grep -E '^\[  (PASSED|FAILED) ' $D/tests_$i.log | tr '\n' ' ')" >> $D/log.txt
    grep -E "^\[  FAILED" $D/tests_$i.log | head -10 >> $D/log.txt
done
pack
timeout 200 python3 tests/test_cli_sweep.py .carry/fuselab --target cuda --no-default-size \
    --jobs 12 > $D/sweep_sampled.log 2>&1
echo "CLI sweep (every CUDA variant, sampled shapes): exit $? at $SECONDS s: $(tail -1 $D/sweep_sampled.log)" >> $D/log.txt
grep -E "^FAIL|^summary" $D/sweep_sampled.log | head -12 >> $D/log.txt
pack
timeout 60 python3 tests/test_python.py .carry/fuselab > $D/python_tests.log 2>&1
echo "test_python.py: exit $? at $SECONDS s: $(tail -1 $D/python_tests.log)" >> $D/log.txt
timeout 120 python3 tests/test_torch.py > $D/torch_tests.log 2>&1
echo "test_torch.py: exit $? at $SECONDS s: $(tail -1 $D/torch_tests.log)" >> $D/log.txt
pack
# The copy of this call (the ceiling the grid's TB/s are read against): a device-to-device copy
# of 1 GiB, CUDA events, the median of 20 after 3 warm-ups (peers.py's copy, in small).
python3 - > $D/copy.txt 2>&1 <<'PY'
import statistics, torch
x = torch.rand(1 << 28, device="cuda")
y = torch.empty_like(x)
for _ in range(3):
    y.copy_(x)
ts = []
for _ in range(20):
    a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    a.record(); y.copy_(x); b.record(); b.synchronize()
    ts.append(a.elapsed_time(b) * 1e3)
us = statistics.median(ts)
print(f"copy 1 GiB: median {us:.1f} us, {2 * x.numel() * 4 / us / 1e6:.3f} TB/s (read + write)")
PY
echo "$(cat $D/copy.txt) at $SECONDS s" >> $D/log.txt
ns="--n 256 --n 1024 --n 4096 --n 16384"
common="block_row block_row_2k block_row_4k block_row_wide chunked_row staged_row_2k staged_row_8k staged_row_wide warp_regs_1k warp_row adjacent_warp"
for p in softmax rmsnorm_residual layernorm; do
    list=$common
    [ $p = layernorm ] && list+=" adjacent_row"
    [ $p = rmsnorm_residual ] && list+=" adjacent_row adjacent_staged_2k"
    sel=""
    for s in $list; do sel+=" --schedule $s"; done
    for lib in new old; do
        left=$((${DEADLINE:-570} - SECONDS))
        [ $left -lt 20 ] && break 2
        so=python/fuselab/libfuselab.so
        [ $lib = old ] && so=/tmp/old/libfuselab.so
        # shellcheck disable=SC2086
        FUSELAB_LIBRARY=$so timeout $left python3 tools/row_grid.py --json $D/grid_${p}_$lib.json \
            --pipeline $p --dtype float32 --dtype bfloat16 --dtype float16 $ns --elements 26 $sel \
            > $D/grid_${p}_$lib.log 2>&1
        echo "row_grid $p $lib: exit $? at $SECONDS s: $(tail -1 $D/grid_${p}_$lib.log)" >> $D/log.txt
        pack
    done
done
cat $D/log.txt
