#!/usr/bin/env bash
# s39's fifth GPU call: Nsight Compute on the exact kernels (Form::exact) beside the same
# strategy's kernel 8 elements shorter (N - 8: aligned, the kernel every other N runs), bfloat16,
# 2^24 elements; then, only where the GPU is an H200, g2's tables there (every row strategy at the
# six exact row shapes, three types; the suite's N and 2048 and 8192 beside the peers).
set -uo pipefail
bash gpu/carry.sh --unpack || exit 1
export PYTHONUNBUFFERED=1 FUSELAB_LIBRARY=python/fuselab/libfuselab.so
D=/tmp/g3
mkdir -p $D/ncu
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    cat .carry/commit .carry/status
} > "$D/machine.txt" 2>&1
pack() { tar czf "$OUT/g3.tar.gz" -C /tmp g3; }
metrics="gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,l1tex__t_bytes.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active"
for c in softmax:2048:staged_row_2k softmax:8192:staged_row_wide layernorm:4096:staged_row_4k \
    layernorm:8192:staged_row_8k layernorm:16384:staged_row_16k; do
    IFS=: read -r op n0 s <<< "$c"
    dt=bfloat16
    for n in $n0 $((n0 - 8)); do
        f="$D/ncu/${op}__${dt}__${n}__${s}.csv"
        echo "$op,$dt,$n,$s,,,," > "$f"
        timeout 20 ncu --clock-control none --csv --page raw --kernel-name regex:^_kernel \
            --section WarpStateStats --section Occupancy --section LaunchStats \
            --metrics "$metrics" .carry/fuselab bench --target cuda --pipeline "$op" \
            --schedule "$s" --dtype "$dt" --size "${n}x$(( (1 << 24) / n ))" --once \
            --no-check < /dev/null >> "$f" 2>> $D/ncu/err.txt
        echo "ncu $op $dt $n $s: exit $? at $SECONDS s" >> $D/log.txt
    done
done
pack
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
    shapes="--shape 2048x32768 --shape 4096x16 --shape 4096x16384 --shape 8192x8192 --shape 16384x16 --shape 16384x4096"
    common="adjacent_warp block_row block_row_2k block_row_4k block_row_wide chunked_row staged_row_2k staged_row_8k staged_row_wide warp_regs_1k warp_row"
    for p in softmax rmsnorm_residual layernorm; do
        list=$common
        [ $p = layernorm ] && list+=" adjacent_row staged_row_4k staged_row_16k"
        [ $p = rmsnorm_residual ] && list+=" adjacent_row adjacent_staged_2k staged_row_16k"
        sel=""
        for s in $list; do sel+=" --schedule $s"; done
        # shellcheck disable=SC2086
        timeout 60 python3 tools/row_grid.py --json $D/exact_$p.json --pipeline $p --dtype float32 \
            --dtype bfloat16 --dtype float16 $shapes $sel > $D/exact_$p.log 2>&1
        echo "row_grid exact shapes $p: exit $? at $SECONDS s: $(tail -1 $D/exact_$p.log)" >> $D/log.txt
        # shellcheck disable=SC2086
        timeout 60 python3 tools/row_grid.py --json $D/grid_$p.json --pipeline $p --dtype float32 \
            --dtype bfloat16 --dtype float16 --n 256 --n 1024 --n 2048 --n 4096 --n 8192 --n 16384 \
            --n 65536 --n 262144 --elements 26 $sel > $D/grid_$p.log 2>&1
        echo "row_grid suite $p: exit $? at $SECONDS s: $(tail -1 $D/grid_$p.log)" >> $D/log.txt
        pack
    done
    timeout 130 python3 peers/peers.py --workload rows --skip-autotune --time-budget 115 \
        --row-n 256 --row-n 1024 --row-n 4096 --row-n 16384 --row-n 65536 --row-n 262144 \
        --dtype float32 --dtype bfloat16 --dtype float16 --json $D/peers_rows.json > $D/peers.log 2>&1
    echo "peers: exit $? at $SECONDS s: $(tail -1 $D/peers.log)" >> $D/log.txt
    pack
fi
cat $D/log.txt
