#!/usr/bin/env bash
# s46 (copied from s45; never run there) (copied from s44's n1.sh, never run there), on a card other than the H200: Nsight Compute on the cells where fuselab's best
# stayed furthest behind torch.compile in s44's p1 (../2026-12-07-gpu-s44/rows_vs_peers_p1_summary.txt, an H100): layernorm
# bfloat16 at N = 16384 and 8192 (every staged and wide form), float32 at 16384 (the good case,
# for contrast), rmsnorm_residual float32 at 65536, bfloat16 at 1024; 2^26 elements, as p1.
# Per kernel: time, DRAM and L2/L1/shared traffic, instructions, occupancy, the warp states.
set -uo pipefail
[ -f .carry/fuselab ] || bash gpu/carry.sh --unpack || exit 1
D=/tmp/n1
mkdir -p $D/ncu
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    cat .carry/commit
} > "$D/machine.txt" 2>&1
pack() { tar czf "$OUT/n1.tar.gz" -C /tmp n1; }
metrics="gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,l1tex__t_bytes.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active"
for c in layernorm:bfloat16:16384:staged_row_8k layernorm:bfloat16:16384:staged_row_16k \
    layernorm:bfloat16:16384:staged_row_wide layernorm:bfloat16:16384:block_row_wide \
    layernorm:float32:16384:staged_row_8k layernorm:bfloat16:8192:staged_row_4k \
    layernorm:bfloat16:8192:staged_row_8k rmsnorm_residual:float32:65536:block_row_wide \
    rmsnorm_residual:float32:65536:chunked_row rmsnorm_residual:float32:65536:staged_row_wide \
    rmsnorm_residual:bfloat16:1024:warp_regs_1k rmsnorm_residual:bfloat16:1024:warp_row; do
    IFS=: read -r op dt n s <<< "$c"
    f="$D/ncu/${op}__${dt}__${n}__${s}.csv"
    echo "$op,$dt,$n,$s,,,," > "$f"
    timeout 40 ncu --clock-control none --csv --page raw --kernel-name regex:^_kernel \
        --section WarpStateStats --section Occupancy --section LaunchStats \
        --metrics "$metrics" .carry/fuselab bench --target cuda --pipeline "$op" \
        --schedule "$s" --dtype "$dt" --size "${n}x$(( (1 << 26) / n ))" --once \
        --no-check < /dev/null >> "$f" 2>> $D/ncu/err.txt
    echo "ncu $op $dt $n $s: exit $? at $SECONDS s" >> $D/log.txt
    pack
done
cat $D/log.txt
