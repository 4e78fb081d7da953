#!/usr/bin/env bash
# s22's third call on the H200 (after `bash gpu/carry.sh`; carry .carry): the build with the new
# measured table (b/'s row grid and held-out shapes, assemble.sh), and the rows at row lengths
# the suite never names, beside the peers.
#   1. tools/choice_check.py --random 8 --seed 2204: fuselab run with no schedule and no tuning
#      record picks, every strategy timed by the bench (the end-to-end check of the new table, on
#      shapes it never saw).
#   2. The peers (eager, torch.compile, Liger) and the copy at four row lengths the suite never
#      names, 2^25 elements, three pipelines, three types; fuselab's strategies at the same
#      shapes through tools/row_grid.py (same call): N = 184 and 4664 (aligned to 16 bytes, not
#      powers of 2), 1417 and 5989 (odd).
#   3. Nsight Compute over softmax bfloat16 at an odd and an aligned row length (block_row_2k,
#      N = 5989 and 4664): DRAM bytes, instructions, the load widths (the odd rows' element loads).
set -uo pipefail
bash gpu/carry.sh --unpack || exit 1
export FUSELAB_REQUIRE_CUDA=1 PYTHONUNBUFFERED=1 FUSELAB_LIBRARY=python/fuselab/libfuselab.so
export FUSELAB_TORCH_EXT_DIR=/tmp/torch_ext
D=/tmp/c
mkdir -p $D
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    grep -m1 "model name" /proc/cpuinfo; nproc
    python3 -c 'import torch, sys; print("python", sys.version.split()[0], "torch", torch.__version__)'
    cat .carry/commit .carry/status
} > "$OUT/machine.txt" 2>&1
timeout 150 python3 tools/choice_check.py .carry/fuselab --target cuda --random 8 --seed 2204 \
    --json $D/choice_check.json > $D/choice_check.txt 2>&1
echo "choice_check: exit $? at $SECONDS s" >> "$OUT/log.txt"
tail -27 $D/choice_check.txt >> "$OUT/log.txt"
tar czf "$OUT/c.tar.gz" -C /tmp c
shapes="--shape 184x182361 --shape 4664x7194 --shape 1417x23680 --shape 5989x5603"
t0=$SECONDS
# shellcheck disable=SC2086
timeout 120 python3 tools/row_grid.py --json $D/unnamed.json $shapes > $D/unnamed.log 2>&1
echo "row_grid unnamed N: exit $? in $((SECONDS - t0)) s (the torch ops' build included)" >> "$OUT/log.txt"
tar czf "$OUT/c.tar.gz" -C /tmp c
timeout 150 python3 peers/peers.py --workload rows --skip-autotune --time-budget 140 \
    --size 184x182361 --size 4664x7194 --size 1417x23680 --size 5989x5603 \
    --json $D/peers_unnamed.json > $D/peers.log 2>&1
echo "peers: exit $? at $SECONDS s" >> "$OUT/log.txt"
tail -3 $D/peers.log >> "$OUT/log.txt"
tar czf "$OUT/c.tar.gz" -C /tmp c
mkdir -p $D/ncu
metrics="gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum"
metrics+=",sm__sass_inst_executed_op_global_ld.sum,sm__sass_data_bytes_mem_global_op_ld.sum"
for size in 5989x5603 4664x7194; do
    timeout 40 ncu --clock-control none --csv --page raw --kernel-name regex:^_kernel \
        --metrics "$metrics" .carry/fuselab bench --target cuda --pipeline softmax \
        --schedule block_row_2k --dtype bfloat16 --size $size --once --no-check < /dev/null \
        > $D/ncu/softmax__block_row_2k__bfloat16__$size.csv 2>> $D/ncu/err.txt
    echo "ncu $size: exit $? at $SECONDS s" >> "$OUT/log.txt"
done
tar czf "$OUT/c.tar.gz" -C /tmp c
cat "$OUT/log.txt"
