#!/usr/bin/env bash
# s37's fifth GPU call (the carry of g3/g4: 1596b6e's build, whose kernels every later commit of
# s37 leaves byte for byte): Nsight Compute over the row kernels this session changed, for the
# next session's profile: layernorm's 16-bit leaders at N = 4096 and 16384 (the cells still
# below 0.93 of the copy) and softmax bfloat16 block_row_2k at N = 4096 (0.85x after the mask
# change, g3) beside block_row_4k.
set -uo pipefail
[ -f .carry/fuselab ] || bash gpu/carry.sh --unpack || exit 1
D=/tmp/g5
mkdir -p $D/ncu
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    cat .carry/commit .carry/status
} > "$D/machine.txt" 2>&1
metrics="gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,l1tex__t_bytes.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active"
for c in layernorm:bfloat16:4096:block_row_4k layernorm:float16:4096:staged_row_2k \
    layernorm:bfloat16:16384:staged_row_8k layernorm:float16:16384:staged_row_8k \
    softmax:bfloat16:4096:block_row_2k softmax:bfloat16:4096:block_row_4k; do
    IFS=: read -r op dt n s <<< "$c"
    f="$D/ncu/${op}__${dt}__${n}__${s}.csv"
    echo "$op,$dt,$n,$s,,,," > "$f"
    timeout 15 ncu --clock-control none --csv --page raw --kernel-name regex:^_kernel \
        --section WarpStateStats --section Occupancy --section LaunchStats \
        --metrics "$metrics" .carry/fuselab bench --target cuda --pipeline "$op" \
        --schedule "$s" --dtype "$dt" --size "${n}x$(( (1 << 24) / n ))" --once \
        --no-check < /dev/null >> "$f" 2>> $D/ncu/err.txt
    echo "ncu $op $dt $n $s: exit $? at $SECONDS s" >> $D/log.txt
done
tar czf "$OUT/g5.tar.gz" -C /tmp g5
cat $D/log.txt
