#!/usr/bin/env bash
# s26 call 1 (carry .carry_search: tools/row_search.cpp built with every shipped fused row
# strategy but chunked_row, and the venv's libHalide.so). Which side of float16's hardware route
# (storage.h: HalfRoute) goes wrong on rows that are not whole aligned 16-byte vectors (s15: NaN at
# N = 4099 with both sides by the hardware), and what each route costs: the shipped strategies,
# float16, every row pipeline, JIT-compiled with N known at run time, checked against float64 on
# sampled rows (max_err NaN or "error": wrong), timed (median of batches) at unaligned N and at
# N = 4096 (aligned: every route takes the hardware there but bits).
set -uo pipefail
carry=.carry_search
mkdir -p /tmp/hl /tmp/h
xz -dc $carry/libHalide.so.xz > /tmp/hl/libHalide.so || exit 1
export LD_LIBRARY_PATH=/tmp/hl
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    cat .carry_search/commit 2>/dev/null
} > /tmp/h/machine.txt 2>&1
pack() { tar czf "$OUT/h.tar.gz" -C /tmp h; }
trap pack EXIT
t0=$SECONDS
S=staged_row_2k,block_row_2k,block_row_4k,warp_row,staged_row_wide,warp_regs_1k
for route in aligned native widen_native narrow_native bits; do
    for k in 0 1 2; do
        timeout 300 $carry/fuselab_row_search --no-grid --strategies $S --dtypes float16 \
            --ns 1001,1417,4099,7194,12345,4096 --elements 33554432 --half $route \
            --shard $k/3 --lock /tmp/rs.lock > /tmp/h/${route}_$k.csv 2> /tmp/h/${route}_$k.err &
    done
done
wait
echo "search: $((SECONDS - t0)) s" >> /tmp/h/log.txt
for route in aligned native widen_native narrow_native bits; do
    { head -1 /tmp/h/${route}_0.csv; for k in 0 1 2; do tail -n +2 /tmp/h/${route}_$k.csv; done; } |
        sed "s/^/$route,/" > /tmp/h/$route.csv
done
cat /tmp/h/log.txt
