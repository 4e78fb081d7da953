#!/usr/bin/env bash
# s26 call 2 (carry .carry_search: tools/row_search.cpp as in call 1, h.sh, with storage.h's
# Guarded route: float16 rounded by the hardware on unaligned rows too, behind a select on the
# result's bits, which keeps LLVM from storing the float32's low 16 bits unrounded, the
# miscompile found in the PTX after call 1). The same cases as h.sh: the shipped strategies,
# float16, every row pipeline, checked against float64 on sampled rows and timed, under the
# guarded route, the widen_native route (call 1's winner) and the aligned route (s25's), at
# unaligned N; N = 4099, where every call-1 process aborted, last and in its own processes.
set -uo pipefail
carry=.carry_search
mkdir -p /tmp/hl /tmp/h2
xz -dc $carry/libHalide.so.xz > /tmp/hl/libHalide.so || exit 1
export LD_LIBRARY_PATH=/tmp/hl
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    cat $carry/commit 2>/dev/null
} > /tmp/h2/machine.txt 2>&1
pack() { tar czf "$OUT/h2.tar.gz" -C /tmp h2; }
trap pack EXIT
t0=$SECONDS
S=staged_row_2k,block_row_2k,block_row_4k,warp_row,staged_row_wide,warp_regs_1k
for route in guarded widen_native aligned; do
    for k in 0 1 2; do
        timeout 200 $carry/fuselab_row_search --no-grid --strategies $S --dtypes float16 \
            --ns 1001,1417,2100,5989,7194,12345 --elements 33554432 --half $route \
            --shard $k/3 --lock /tmp/rs.lock > /tmp/h2/${route}_$k.csv 2> /tmp/h2/${route}_$k.err &
    done
done
wait
echo "search: $((SECONDS - t0)) s" >> /tmp/h2/log.txt
for k in 0 1 2; do
    timeout 60 $carry/fuselab_row_search --no-grid --strategies $S --dtypes float16 --ns 4099 \
        --elements 33554432 --half guarded --shard $k/3 --lock /tmp/rs.lock \
        > /tmp/h2/n4099_$k.csv 2> /tmp/h2/n4099_$k.err &
done
wait
echo "N = 4099: $((SECONDS - t0)) s" >> /tmp/h2/log.txt
dmesg 2>/dev/null | tail -5 >> /tmp/h2/log.txt
cat /tmp/h2/log.txt
