#!/usr/bin/env bash
# s38's sixth GPU call (g3's machine, an H200): layernorm and rmsnorm_residual at every shape of
# results/h200.json with N >= 4096, bfloat16 and float16, every row strategy of each (this
# session's new ones among them), for the choice's H200 table: those cells are replaced whole.
set -uo pipefail
[ -f .carry/fuselab ] || bash gpu/carry.sh --unpack || exit 1
export PYTHONUNBUFFERED=1 FUSELAB_LIBRARY=python/fuselab/libfuselab.so
D=/tmp/g6
mkdir -p $D
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    cat .carry/commit .carry/status
} > "$D/machine.txt" 2>&1
shapes="--shape 4096x16384 --shape 4096x16 --shape 4664x7194 --shape 4664x450 --shape 4664x1799 --shape 5973x2710 --shape 5989x1401 --shape 5989x350 --shape 5989x5603 --shape 6144x10922 --shape 6438x498 --shape 7416x283 --shape 7416x1131 --shape 7416x4525 --shape 8192x8192 --shape 8627x2229 --shape 8863x237 --shape 8863x946 --shape 8863x3786 --shape 9000x3728 --shape 9077x705 --shape 9508x374 --shape 9854x2122 --shape 10431x608 --shape 11936x2811 --shape 11936x176 --shape 11936x703 --shape 12288x5461 --shape 12345x2718 --shape 13764x436 --shape 14701x571 --shape 14701x2282 --shape 14701x143 --shape 15608x658 --shape 16384x4096 --shape 16384x16 --shape 18112x1853 --shape 18112x463 --shape 18112x116 --shape 18149x264 --shape 22597x1485 --shape 22597x93 --shape 22597x371 --shape 24576x2730 --shape 27150x84 --shape 28321x62 --shape 30008x1118 --shape 30008x70 --shape 30008x280 --shape 32768x2048 --shape 34397x1806 --shape 37025x227 --shape 37025x57 --shape 37025x906 --shape 42439x50 --shape 42846x468 --shape 43178x72 --shape 47968x700 --shape 47968x175 --shape 47968x44 --shape 50608x238 --shape 51440x193 --shape 52002x138 --shape 53978x669 --shape 59538x174 --shape 59665x141 --shape 59665x562 --shape 59665x35 --shape 65536x16 --shape 65536x1024 --shape 69421x62 --shape 71167x390 --shape 71208x36 --shape 76272x110 --shape 76272x27 --shape 76272x440 --shape 77589x111 --shape 80522x277 --shape 93173x90 --shape 93173x360 --shape 93173x23 --shape 94766x13 --shape 107750x502 --shape 115191x18 --shape 118624x18 --shape 118624x71 --shape 118624x283 --shape 131072x512 --shape 262144x256"
for p in layernorm rmsnorm_residual; do
    list="adjacent_row adjacent_warp block_row block_row_2k block_row_4k block_row_wide chunked_row staged_row_2k staged_row_8k staged_row_16k staged_row_wide warp_regs_1k warp_row"
    [ $p = layernorm ] && list+=" staged_row_4k"
    [ $p = rmsnorm_residual ] && list+=" adjacent_staged_2k"
    sel=""
    for s in $list; do sel+=" --schedule $s"; done
    # shellcheck disable=SC2086
    timeout 200 python3 tools/row_grid.py --json $D/table_$p.json --pipeline $p --dtype bfloat16 \
        --dtype float16 $shapes $sel > $D/table_$p.log 2>&1
    echo "row_grid table $p: exit $? at $SECONDS s: $(tail -1 $D/table_$p.log)" >> $D/log.txt
    tar czf "$OUT/g6.tar.gz" -C /tmp g6
done
cat $D/log.txt
