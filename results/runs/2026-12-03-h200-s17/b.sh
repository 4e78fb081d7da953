#!/usr/bin/env bash
# s17's second call on the H200 (after `bash gpu/carry.sh`; carry .carry): staged_row_wide (rows
# up to 192 KB staged once, the kernel's shared-memory limit raised at the launch), the runtime's
# lean call.
#   1. the row tests (every row variant against float64, incl. rows of 20000 and 65537);
#   2. every fused row strategy at 16 row lengths, 256 .. 262144, 2^26 elements a call, the three
#      types (the grid for the choice's measured shapes too);
#   3. the peers at the suite's six N in this call;
#   4. the host cost of a call, each layer: fuselab overhead (C++) and peers/call_overhead.py.
set -uo pipefail
bash gpu/carry.sh --unpack || exit 1
export FUSELAB_REQUIRE_CUDA=1 PYTHONUNBUFFERED=1
mkdir -p /tmp/b
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    grep -m1 "model name" /proc/cpuinfo; nproc
    cat .carry/commit .carry/status
} > "$OUT/machine.txt" 2>&1
timeout 110 .carry/fuselab_tests --gtest_filter='*softmax*:*rmsnorm*:*layernorm*:Rows/*:Runtime.*:CallPlan.*' \
    > /tmp/b/tests.log 2>&1
echo "row tests: exit $? at $SECONDS s" >> "$OUT/log.txt"
tail -4 /tmp/b/tests.log >> "$OUT/log.txt"
grep -E "^\[  FAILED|Failure" /tmp/b/tests.log | head -20 >> "$OUT/log.txt"
sel=""
for s in warp_regs_1k warp_row block_row block_row_wide block_row_2k block_row_4k staged_row_2k \
    staged_row_8k staged_row_wide; do sel+=" --schedule $s"; done
sizes=""
for n in 256 512 1000 1024 2048 3000 4096 6144 8192 12288 16384 24576 32768 65536 131072 262144; do
    sizes+=" --size ${n}x$(( (1 << 26) / n ))"
done
for p in softmax rmsnorm_residual layernorm; do
    # shellcheck disable=SC2086
    timeout 90 .carry/fuselab bench --target cuda --pipeline "$p" $sel $sizes \
        --budget 0.04 --device-budget 0.02 --no-check --json "/tmp/b/grid_$p.json" \
        2>> /tmp/b/grid.log | tail -1 >> "$OUT/log.txt"
    echo "grid $p: exit ${PIPESTATUS[0]} at $SECONDS s" >> "$OUT/log.txt"
done
timeout 170 python3 peers/peers.py --workload rows --skip-autotune --time-budget 160 \
    --row-n 256 --row-n 1024 --row-n 4096 --row-n 16384 --row-n 65536 --row-n 262144 --dtype float32 --dtype bfloat16 \
    --dtype float16 --json /tmp/b/peers_rows.json 2>> /tmp/b/peers.log | tail -2 >> "$OUT/log.txt"
echo "peers: exit ${PIPESTATUS[0]} at $SECONDS s" >> "$OUT/log.txt"
.carry/fuselab overhead --target cuda --json /tmp/b/overhead_cpp.json >> "$OUT/log.txt" 2>&1
echo "overhead C++: exit $? at $SECONDS s" >> "$OUT/log.txt"
timeout 60 python3 peers/call_overhead.py --device cuda --json /tmp/b/call_overhead.json \
    >> "$OUT/log.txt" 2>&1
echo "call_overhead.py: exit $? at $SECONDS s" >> "$OUT/log.txt"
tar czf "$OUT/b.tar.gz" -C /tmp b
grep -vE "^\s*$" "$OUT/log.txt" | tail -45
