#!/usr/bin/env bash
# s38's fifth GPU call (g3's machine, an H200): test_python.py again with a longer limit (g3's
# 60 s ran out), then Nsight Compute over the bfloat16 row leaders at N = 256 to 65536 and the new
# strategies (staged_row_16k at 65536, staged_row_4k at 16384).
set -uo pipefail
[ -f .carry/fuselab ] || bash gpu/carry.sh --unpack || exit 1
export FUSELAB_REQUIRE_CUDA=1 PYTHONUNBUFFERED=1 FUSELAB_LIBRARY=python/fuselab/libfuselab.so
D=/tmp/g5
mkdir -p $D/ncu
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    cat .carry/commit .carry/status
} > "$D/machine.txt" 2>&1
empty=$(mktemp -d)
export FUSELAB_TUNING_FILE=$empty/tuning.json
timeout 240 python3 tests/test_python.py .carry/fuselab > $D/python_tests.log 2>&1
echo "test_python.py: exit $? at $SECONDS s: $(tail -1 $D/python_tests.log)" >> $D/log.txt
tar czf "$OUT/g5.tar.gz" -C /tmp g5
metrics="gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,l1tex__t_bytes.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active"
for c in softmax:256:warp_regs_1k softmax:4096:block_row_4k softmax:16384:staged_row_8k \
    softmax:65536:staged_row_wide layernorm:4096:block_row_4k layernorm:16384:staged_row_8k \
    layernorm:16384:staged_row_4k layernorm:65536:staged_row_wide layernorm:65536:staged_row_16k \
    rmsnorm_residual:65536:staged_row_wide rmsnorm_residual:65536:staged_row_16k; do
    IFS=: read -r op n s <<< "$c"
    dt=bfloat16
    f="$D/ncu/${op}__${dt}__${n}__${s}.csv"
    echo "$op,$dt,$n,$s,,,," > "$f"
    timeout 20 ncu --clock-control none --csv --page raw --kernel-name regex:^_kernel \
        --section WarpStateStats --section Occupancy --section LaunchStats \
        --metrics "$metrics" .carry/fuselab bench --target cuda --pipeline "$op" \
        --schedule "$s" --dtype "$dt" --size "${n}x$(( (1 << 24) / n ))" --once \
        --no-check < /dev/null >> "$f" 2>> $D/ncu/err.txt
    echo "ncu $op $dt $n $s: exit $? at $SECONDS s" >> $D/log.txt
done
tar czf "$OUT/g5.tar.gz" -C /tmp g5
cat $D/log.txt
