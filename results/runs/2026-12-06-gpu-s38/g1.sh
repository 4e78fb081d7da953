#!/usr/bin/env bash
# s38's first GPU call: the staged forms' bucket in 16-bit types (issue 30: a 16-bit thread
# stages half the bytes a float32 thread does, 2 or 4 vectors of 16 bytes in flight a chunk).
# Six experimental strategies (schedules/*/x*.cpp, uncommitted), each a shipped staged form with
# a larger bucket in 16-bit types (float32's kernels unchanged but for the thread counts):
#   x8k_b16  staged_row_8k, 16-bit bucket 16384        x8k_t512 the same, 512 threads
#   xw_b16   staged_row_wide, 16-bit bucket 16384      xw_b32   the same, 32768
#   xw_t1k   staged_row_wide, 1024 threads, 32768      x2k_b4   staged_row_2k, 16-bit 4096
# tools/row_grid.py beside the shipped staged forms and block_row_4k, 2^26 elements, two rounds
# (the strategies' order reversed in the second); then Nsight Compute at N = 65536 bfloat16.
set -uo pipefail
bash gpu/carry.sh --unpack || exit 1
export PYTHONUNBUFFERED=1 FUSELAB_LIBRARY=python/fuselab/libfuselab.so
D=/tmp/g1
mkdir -p $D/ncu
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    cat .carry/commit .carry/status
} > "$D/machine.txt" 2>&1
pack() { tar czf "$OUT/g1.tar.gz" -C /tmp g1; }
n16="--n 2048 --n 3072 --n 4096 --n 6144 --n 8192 --n 12288 --n 16384 --n 24576 --n 32768 --n 49152 --n 65536"
n32="--n 4096 --n 16384 --n 32768"
list="staged_row_2k staged_row_8k staged_row_wide block_row_4k x8k_b16 x8k_t512 xw_b16 xw_b32 xw_t1k x2k_b4"
rev=$(echo $list | tr ' ' '\n' | tac | tr '\n' ' ')
for round in 1 2; do
    l=$list
    [ $round = 2 ] && l=$rev
    sel=""
    for s in $l; do sel+=" --schedule $s"; done
    for p in softmax rmsnorm_residual layernorm; do
        # shellcheck disable=SC2086
        timeout 120 python3 tools/row_grid.py --json $D/r${round}_${p}_16.json --pipeline $p \
            --dtype bfloat16 --dtype float16 $n16 --elements 26 $sel > $D/r${round}_${p}_16.log 2>&1
        echo "round $round $p 16-bit: exit $? at $SECONDS s" >> $D/log.txt
        # shellcheck disable=SC2086
        timeout 60 python3 tools/row_grid.py --json $D/r${round}_${p}_32.json --pipeline $p \
            --dtype float32 $n32 --elements 26 $sel > $D/r${round}_${p}_32.log 2>&1
        echo "round $round $p float32: exit $? at $SECONDS s" >> $D/log.txt
    done
    pack
done
metrics="gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,l1tex__t_bytes.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active"
for c in softmax:bfloat16:65536:staged_row_wide softmax:bfloat16:65536:xw_b32 \
    layernorm:bfloat16:65536:staged_row_wide layernorm:bfloat16:65536:xw_b32 \
    layernorm:bfloat16:16384:staged_row_8k layernorm:bfloat16:16384:x8k_b16; do
    IFS=: read -r op dt n s <<< "$c"
    f="$D/ncu/${op}__${dt}__${n}__${s}.csv"
    echo "$op,$dt,$n,$s,,,," > "$f"
    timeout 20 ncu --clock-control none --csv --page raw --kernel-name regex:^_kernel \
        --section WarpStateStats --section Occupancy --section LaunchStats \
        --metrics "$metrics" .carry/fuselab bench --target cuda --pipeline "$op" \
        --schedule "$s" --dtype "$dt" --size "${n}x$(( (1 << 24) / n ))" --once \
        --no-check < /dev/null >> "$f" 2>> $D/ncu/err.txt
    echo "ncu $op $dt $n $s: exit $? at $SECONDS s" >> $D/log.txt
done
pack
cat $D/log.txt
