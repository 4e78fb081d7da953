#!/usr/bin/env bash
# s36's second GPU call (same machine, same carry as a.sh): the row strategies of this session's
# build at the suite's six CUDA row shapes (N x M = 2^26) beside the peers (torch eager,
# torch.compile static, Liger) and the copy of the same call (issue 30: only same-run ratios
# count). tools/row_grid.py over every row strategy, three types; then peers/peers.py at the
# same shapes (--workload rows), in the time left but 80 s; then Nsight Compute over the
# bfloat16 leaders at N = 256 and 4096 (results/rows_ncu.md's form).
set -uo pipefail
[ -f .carry/fuselab ] || bash gpu/carry.sh --unpack || exit 1
export PYTHONUNBUFFERED=1 FUSELAB_LIBRARY=python/fuselab/libfuselab.so
D=/tmp/b
mkdir -p $D
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    cat .carry/commit .carry/status
} > "$D/machine.txt" 2>&1
pack() { tar czf "$OUT/b.tar.gz" -C /tmp b; }
ns="--n 256 --n 1024 --n 4096 --n 16384 --n 65536 --n 262144"
common="block_row block_row_2k block_row_4k block_row_wide chunked_row staged_row_2k staged_row_8k staged_row_wide warp_regs_1k warp_row adjacent_warp"
for p in softmax rmsnorm_residual layernorm; do
    list=$common
    [ $p = layernorm ] && list+=" adjacent_row"
    [ $p = rmsnorm_residual ] && list+=" adjacent_row adjacent_staged_2k"
    sel=""
    for s in $list; do sel+=" --schedule $s"; done
    # shellcheck disable=SC2086
    timeout 90 python3 tools/row_grid.py --json $D/grid_$p.json --pipeline $p --dtype float32 \
        --dtype bfloat16 --dtype float16 $ns --elements 26 $sel > $D/grid_$p.log 2>&1
    echo "row_grid $p: exit $? at $SECONDS s: $(tail -1 $D/grid_$p.log)" >> $D/log.txt
    pack
done
left=$((${DEADLINE:-570} - SECONDS - 80))
timeout $left python3 peers/peers.py --workload rows --skip-autotune --time-budget $((left - 10)) \
    --row-n 256 --row-n 1024 --row-n 4096 --row-n 16384 --row-n 65536 --row-n 262144 \
    --dtype float32 --dtype bfloat16 --dtype float16 --json $D/peers_rows.json > $D/peers.log 2>&1
echo "peers: exit $? at $SECONDS s: $(tail -1 $D/peers.log)" >> $D/log.txt
pack
# Nsight Compute over the 16-bit leaders after this session's cuts (results/rows_ncu.md's s19 form).
mkdir -p $D/ncu
metrics="gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,l1tex__t_bytes.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active"
for c in softmax:256:warp_regs_1k softmax:4096:staged_row_2k rmsnorm_residual:256:warp_regs_1k \
    rmsnorm_residual:4096:staged_row_2k layernorm:256:warp_regs_1k layernorm:4096:staged_row_2k; do
    IFS=: read -r op n s <<< "$c"
    dt=bfloat16
    f="$D/ncu/${op}__${dt}__${n}__${s}.csv"
    [ $((${DEADLINE:-570} - SECONDS)) -lt 15 ] && break
    echo "$op,$dt,$n,$s,,,," > "$f"
    timeout 12 ncu --clock-control none --csv --page raw --kernel-name regex:^_kernel \
        --section WarpStateStats --section Occupancy --section LaunchStats \
        --metrics "$metrics" .carry/fuselab bench --target cuda --pipeline "$op" \
        --schedule "$s" --dtype "$dt" --size "${n}x$(( (1 << 24) / n ))" --once \
        --no-check < /dev/null >> "$f" 2>> $D/ncu/err.txt
    echo "ncu $op $dt $n $s: exit $? at $SECONDS s" >> $D/log.txt
done
pack
cat $D/log.txt
