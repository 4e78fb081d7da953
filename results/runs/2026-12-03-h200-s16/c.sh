#!/usr/bin/env bash
# s16's third call on the H200 (after `bash gpu/carry.sh` here; carry .carry):
#   1. the grid's further row lengths for the choice's measured shapes (N = 128, 1536, 6144, 12288
#      at 2^26 elements a call; 1024, 16384 and 65536 at 16 rows), every fused row strategy;
#   2. Nsight Compute over one call of each case in $1 (op:dtype:N:strategy,...; the leaders of
#      this session's timing call), at 2^24 elements, one ncu process a case: its raw CSV in
#      ncu/, with a case line that results/rows_ncu_table.py reads.
set -uo pipefail
bash gpu/carry.sh --unpack || exit 1
export FUSELAB_REQUIRE_CUDA=1 PYTHONUNBUFFERED=1
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    grep -m1 "model name" /proc/cpuinfo; nproc
    cat .carry/commit .carry/status
} > "$OUT/machine.txt" 2>&1
sel=""
for s in warp_row block_row block_row_wide block_row_2k block_row_4k staged_row_2k staged_row_8k; do sel+=" --schedule $s"; done
sizes=""
for n in 128 1536 6144 12288; do sizes+=" --size ${n}x$(( (1 << 26) / n ))"; done
for n in 1024 16384 65536; do sizes+=" --size ${n}x16"; done
for pl in softmax:${GRID_S:-50} rmsnorm_residual:${GRID_S:-50} layernorm:${GRID_S:-50}; do
    p=${pl%%:*}
    # shellcheck disable=SC2086
    timeout "${pl##*:}" .carry/fuselab bench --target cuda --pipeline "$p" $sel $sizes \
        --budget 0.05 --device-budget 0.03 --no-check --json "$OUT/grid_$p.json" \
        2>> "$OUT/log.txt" | tail -1 >> "$OUT/log.txt"
    echo "grid $p: exit ${PIPESTATUS[0]} at $SECONDS s" >> "$OUT/log.txt"
done
mkdir -p /tmp/ncu
metrics="gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,l1tex__t_bytes.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active"
for c in ${1//,/ }; do
    IFS=: read -r op dt n s <<< "$c"
    f="/tmp/ncu/${op}__${dt}__${n}__${s}.csv"
    echo "$op,$dt,$n,$s,,,," > "$f"
    timeout 40 ncu --clock-control none --csv --page raw --kernel-name regex:^_kernel \
        --section WarpStateStats --section Occupancy --section LaunchStats --metrics "$metrics" \
        .carry/fuselab bench --target cuda --pipeline "$op" --schedule "$s" --dtype "$dt" \
        --size "${n}x$(( (1 << 24) / n ))" --once --no-check < /dev/null >> "$f" 2>> /tmp/ncu/err.txt
    echo "ncu $c: exit $? at $SECONDS s" >> "$OUT/log.txt"
done
tar czf "$OUT/ncu.tar.gz" -C /tmp ncu
cat "$OUT/log.txt"
