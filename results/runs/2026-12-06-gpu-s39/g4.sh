#!/usr/bin/env bash
# s39's sixth GPU call: Form::exact in seven more strategies, as g1 (experimental copies,
# schedules/*/x*_e.cpp, uncommitted): softmax xb2k_e and layernorm xb2k_e (block_row_2k, padded:
# 2048 4096), layernorm xsw_e and rmsnorm_residual xsw_e (staged_row_wide: 8192 16384),
# rmsnorm_residual xb2k_e (block_row_2k: 2048 .. 16384), xb4k_e (block_row_4k: 4096 .. 32768),
# xs2k_e (staged_row_2k: 2048 4096). The CLI sweep of the seven at those N, then
# tools/row_grid.py beside their bases, 2^26 elements, three types, two rounds (order reversed).
set -uo pipefail
bash gpu/carry.sh --unpack || exit 1
export PYTHONUNBUFFERED=1 FUSELAB_LIBRARY=python/fuselab/libfuselab.so
D=/tmp/g4
mkdir -p $D
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    cat .carry/commit .carry/status
} > "$D/machine.txt" 2>&1
pack() { tar czf "$OUT/g4.tar.gz" -C /tmp g4; }
var=""
for v in softmax/xb2k_e layernorm/xb2k_e layernorm/xsw_e rmsnorm_residual/xb2k_e \
    rmsnorm_residual/xb4k_e rmsnorm_residual/xs2k_e rmsnorm_residual/xsw_e; do
    var+=" --variant $v --variant $v/bfloat16 --variant $v/float16"
done
sizes="--size 2048x33 --size 4096x37 --size 8192x19 --size 16384x9 --size 32768x3 --size 4000x7"
# shellcheck disable=SC2086
timeout 120 python3 tests/test_cli_sweep.py .carry/fuselab --target cuda $var $sizes --jobs 12 \
    > $D/sweep_x.log 2>&1
echo "CLI sweep (x variants): exit $? at $SECONDS s: $(tail -1 $D/sweep_x.log)" >> $D/log.txt
grep -E "^FAIL|^summary" $D/sweep_x.log | head -12 >> $D/log.txt
pack
ns="--n 2048 --n 4096 --n 8192 --n 16384 --n 32768"
declare -A L
L[softmax]="block_row_2k xb2k_e"
L[layernorm]="block_row_2k xb2k_e staged_row_wide xsw_e"
L[rmsnorm_residual]="block_row_2k xb2k_e block_row_4k xb4k_e staged_row_2k xs2k_e staged_row_wide xsw_e"
for round in 1 2; do
    for p in softmax layernorm rmsnorm_residual; do
        l=${L[$p]}
        [ $round = 2 ] && l=$(echo $l | tr ' ' '\n' | tac | tr '\n' ' ')
        sel=""
        for s in $l; do sel+=" --schedule $s"; done
        # shellcheck disable=SC2086
        timeout 90 python3 tools/row_grid.py --json $D/r${round}_$p.json --pipeline $p \
            --dtype bfloat16 --dtype float16 --dtype float32 $ns --elements 26 $sel > $D/r${round}_$p.log 2>&1
        echo "round $round $p: exit $? at $SECONDS s" >> $D/log.txt
    done
    pack
done
cat $D/log.txt
