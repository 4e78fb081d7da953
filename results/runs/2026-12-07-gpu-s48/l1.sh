#!/usr/bin/env bash
# s48: the L2 form (schedules/rows_l2.h, an experiment: each block stages its row in a slice of a
# global scratch, the blocks persistent so that the slice stays in the L2) against the shipped
# strategies for long rows (chunked_row, block_row_wide, staged_row_16k, staged_row_wide), in one
# run of tools/row_search.cpp (JIT, N known only at run time, every output checked against
# float64 on sampled rows, 2^26 elements a call, the copy of the same run first). Carries
# .carry_search (bash gpu/row_search.sh --pack).
set -uo pipefail
root=$(pwd)
D=/tmp/l1
mkdir -p $D /tmp/hl
pack() { tar czf "$OUT/l1.tar.gz" -C /tmp l1; }
trap pack EXIT
xz -dc .carry_search/libHalide.so.xz > /tmp/hl/libHalide.so || exit 1
export LD_LIBRARY_PATH=/tmp/hl${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
bin=.carry_search/fuselab_row_search
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    cat .carry_search/commit 2>/dev/null
} > $D/machine.txt 2>&1
forms=""
for f in t256_u4_o2 t512_u4_o2 t512_u8_o4; do
    for l in 16 24 32 40; do forms+="block_${f}_staged_l$l,"; done
done
P=6
t0=$SECONDS
for k in $(seq 0 $((P - 1))); do
    timeout ${SEARCH_TIMEOUT:-420} $bin --shard $k/$P --lock /tmp/l1.lock --no-grid \
        --strategies chunked_row,block_row_wide,staged_row_16k,staged_row_wide --forms "$forms" \
        --ops softmax,rmsnorm_residual,layernorm --dtypes float32,bfloat16 \
        --ns 16384,32768,65536,131072,262144 \
        > $D/search_$k.csv 2> $D/search_$k.err &
done
wait
echo "search: $((SECONDS - t0)) s" >> $D/log.txt
{ head -1 $D/search_0.csv; for k in $(seq 0 $((P - 1))); do tail -n +2 $D/search_$k.csv; done; } > $D/search.csv
python3 tools/row_search_report.py $D/search.csv > $D/search.md 2>&1
cat $D/log.txt
head -60 $D/search.md
