#!/usr/bin/env bash
# s28 call 4 (carry .carry: ac05cca's build, the kernels of fc513c6): Nsight Compute over one call of rmsnorm_residual's
# adjacent_row, adjacent_staged_2k and staged_row_2k at two unnamed shapes whose rows are not
# whole aligned vectors, float16 and bfloat16: time, DRAM bytes, L1 wavefronts, instructions,
# occupancy and warp stalls (why the new forms still trail torch.compile at 1417 and 2100).
set -uo pipefail
bash gpu/carry.sh --unpack || exit 1
D=/tmp/d
mkdir -p $D
{ date -u +%FT%TZ; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv
  cat .carry/commit; } > $D/machine.txt 2>&1
m=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active
for dt in float16 bfloat16; do
    for size in 1417x23680 2100x15978; do
        for s in adjacent_row adjacent_staged_2k staged_row_2k; do
            timeout 60 ncu --clock-control none --csv --page raw --section WarpStateStats \
                --section Occupancy --section LaunchStats --metrics $m \
                .carry/fuselab bench --target cuda --pipeline rmsnorm_residual --schedule $s \
                --dtype $dt --size $size --once --no-check < /dev/null \
                > "$D/${s}__${dt}__${size}.log" 2>&1
            echo "$s $dt $size: exit $?" >> $D/log.txt
        done
    done
done
tar czf "$OUT/d.tar.gz" -C /tmp d
cat $D/log.txt
