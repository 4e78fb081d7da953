#!/usr/bin/env bash
# s22's first call on the H200 (after `bash gpu/carry.sh`; carry .carry): the choice (issue 29)
# and the host cost of a torch op (issue 28).
#   1. A denser measured grid of the rows: 29 row lengths at third-octave steps from 184 to
#      118624 (aligned to 8 and odd in turn, none a power of 2), each at 2^21 and 2^25 elements
#      (the random check draws 2^20 .. 2^26), every fused strategy, the three types. The shipped
#      grid holds 47 shapes a type, most at 2^24 elements.
#   2. tools/choice_check.py --random 8 --seed 2203 with the shipped (s21) tables: where the choice
#      stands, and 24 held-out shapes, every strategy timed, for the new table.
#   3. Nsight Compute's executed-instruction mix (per SASS opcode) of the 16-bit row leaders that
#      are issue-bound (results/rows_ncu.md, s19): layernorm at N = 4096 (staged_row_2k) and 256
#      (warp_regs_1k) in bfloat16, beside float32, and softmax bfloat16 at 4096.
#   4. peers/call_overhead.py in three processes, one after the other: torch.ops.fuselab.add_relu
#      against eager torch.add of the same process (s21: 0.92x in one process, eager 11.11 us, and
#      1.41x against the next process's 7.23).
set -uo pipefail
bash gpu/carry.sh --unpack || exit 1
export FUSELAB_REQUIRE_CUDA=1 PYTHONUNBUFFERED=1 FUSELAB_LIBRARY=python/fuselab/libfuselab.so
export FUSELAB_TORCH_EXT_DIR=/tmp/torch_ext
D=/tmp/a
mkdir -p $D
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    grep -m1 "model name" /proc/cpuinfo; nproc
    python3 -c 'import torch, sys; print("python", sys.version.split()[0], "torch", torch.__version__)'
    cat .carry/commit .carry/status
} > "$OUT/machine.txt" 2>&1
ns="184 221 280 377 448 557 736 901 1184 1417 1888 2265 2920 3775 4664 5989 7416 8863 11936"
ns+=" 14701 18112 22597 30008 37025 47968 59665 76272 93173 118624"
sel=""
for s in block_row block_row_2k block_row_4k block_row_wide chunked_row staged_row_2k \
    staged_row_8k staged_row_wide warp_regs_1k warp_row; do sel+=" --schedule $s"; done
for t in 21 25; do
    sizes=""
    for n in $ns; do sizes+=" --size ${n}x$(( ((1 << t) + n / 2) / n ))"; done
    for p in softmax layernorm rmsnorm_residual; do
        # shellcheck disable=SC2086
        timeout 150 .carry/fuselab bench --target cuda --pipeline "$p" $sel $sizes \
            --budget 0.02 --device-budget 0.01 --no-check --json "$D/grid_${p}_$t.json" \
            2>> $D/grid.log | tail -1 >> "$OUT/log.txt"
        echo "grid $p 2^$t: exit ${PIPESTATUS[0]} at $SECONDS s" >> "$OUT/log.txt"
    done
done
tar czf "$OUT/a.tar.gz" -C /tmp a
timeout 150 python3 tools/choice_check.py .carry/fuselab --target cuda --random 8 --seed 2203 \
    --json $D/choice_check.json > $D/choice_check.txt 2>&1
echo "choice_check: exit $? at $SECONDS s" >> "$OUT/log.txt"
tail -27 $D/choice_check.txt >> "$OUT/log.txt"
tar czf "$OUT/a.tar.gz" -C /tmp a
mkdir -p $D/ncu
for spec in "layernorm staged_row_2k bfloat16 4096x8192" "layernorm staged_row_2k float32 4096x8192" \
    "layernorm warp_regs_1k bfloat16 256x131072" "softmax staged_row_2k bfloat16 4096x8192"; do
    read -r p s dt size <<< "$spec"
    f="$D/ncu/${p}__${s}__${dt}__${size}"
    timeout 60 ncu --clock-control none --csv --page raw --print-metric-instances details \
        --kernel-name regex:^_kernel \
        --metrics sass__inst_executed_per_opcode,smsp__inst_executed.sum,gpu__time_duration.sum \
        .carry/fuselab bench --target cuda --pipeline "$p" --schedule "$s" --dtype "$dt" \
        --size "$size" --once --no-check < /dev/null > "$f.csv" 2> "$f.err"
    echo "ncu opcodes $spec: exit $? at $SECONDS s" >> "$OUT/log.txt"
    timeout 60 ncu --clock-control none --section InstructionStats --print-details all \
        --kernel-name regex:^_kernel .carry/fuselab bench --target cuda --pipeline "$p" \
        --schedule "$s" --dtype "$dt" --size "$size" --once --no-check < /dev/null \
        > "$f.txt" 2>> "$f.err"
    echo "ncu InstructionStats $spec: exit $? at $SECONDS s" >> "$OUT/log.txt"
done
tar czf "$OUT/a.tar.gz" -C /tmp a
t0=$SECONDS
timeout 240 python3 -c 'import sys; sys.path.insert(0, "python"); import fuselab.torch_ops as T; print("backend", T.BACKEND, T.FALLBACK_REASON)' \
    > $D/torch_build.log 2>&1
echo "torch ops build: exit $? in $((SECONDS - t0)) s: $(grep backend $D/torch_build.log)" >> "$OUT/log.txt"
for k in 1 2 3; do
    timeout 90 python3 peers/call_overhead.py --device cuda --json $D/call_overhead_$k.json \
        > $D/call_overhead_$k.txt 2>&1
    echo "call_overhead.py process $k: exit $? at $SECONDS s" >> "$OUT/log.txt"
    grep -E "add_relu |add \(one|fused\)" $D/call_overhead_$k.txt >> "$OUT/log.txt"
done
tar czf "$OUT/a.tar.gz" -C /tmp a
cat "$OUT/log.txt"
