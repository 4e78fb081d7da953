#!/usr/bin/env bash
# s39's first GPU call: Form::exact (rows_forms.h), the rows of exactly k B elements (a bucket's
# or a padded form's step B) specialized with N a constant, so that every mask, guard and the
# division by N fold away. Twelve experimental strategies (schedules/*/x*_e.cpp, uncommitted),
# each a shipped form with exact set (the other kernels the same):
#   layernorm        xb4k_e (block_row_4k, 4096 8192)   xs4k_e (staged_row_4k, 4096..16384)
#                    xs8k_e (staged_row_8k, 4096..16384) xs16k_e (staged_row_16k, 16384..65536)
#                    xs2k_e (staged_row_2k, 2048..16384)
#   softmax          xb4k_e, xs2k_e, xs8k_e (4096..16384), xsw_e (staged_row_wide, 8192..65536)
#   rmsnorm_residual xs2k_e, xs8k_e (8192 16384), xs16k_e
# First the CLI sweep of the 12 at those N (checked against the reference), then
# tools/row_grid.py beside the shipped forms, 2^26 elements, two rounds (order reversed).
set -uo pipefail
bash gpu/carry.sh --unpack || exit 1
export PYTHONUNBUFFERED=1 FUSELAB_LIBRARY=python/fuselab/libfuselab.so
D=/tmp/g1
mkdir -p $D
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    cat .carry/commit .carry/status
} > "$D/machine.txt" 2>&1
pack() { tar czf "$OUT/g1.tar.gz" -C /tmp g1; }
var=""
for v in layernorm/xb4k_e layernorm/xs8k_e layernorm/xs2k_e softmax/xb4k_e softmax/xs2k_e \
    softmax/xs8k_e softmax/xsw_e rmsnorm_residual/xs2k_e rmsnorm_residual/xs8k_e; do
    var+=" --variant $v --variant $v/bfloat16 --variant $v/float16"
done
for v in layernorm/xs4k_e layernorm/xs16k_e rmsnorm_residual/xs16k_e; do
    var+=" --variant $v/bfloat16 --variant $v/float16"
done
sizes="--size 2048x33 --size 4096x37 --size 8192x19 --size 16384x9 --size 32768x3 --size 65536x2 --size 4000x7 --size 8200x5"
# shellcheck disable=SC2086
timeout 150 python3 tests/test_cli_sweep.py .carry/fuselab --target cuda $var $sizes --jobs 12 \
    > $D/sweep_x.log 2>&1
echo "CLI sweep (x variants): exit $? at $SECONDS s: $(tail -1 $D/sweep_x.log)" >> $D/log.txt
grep -E "^FAIL|^summary" $D/sweep_x.log | head -12 >> $D/log.txt
pack
ns="--n 2048 --n 4096 --n 8192 --n 16384 --n 32768 --n 65536"
declare -A L
L[layernorm]="block_row_4k xb4k_e staged_row_4k xs4k_e staged_row_8k xs8k_e staged_row_16k xs16k_e staged_row_2k xs2k_e staged_row_wide"
L[softmax]="block_row_4k xb4k_e staged_row_2k xs2k_e staged_row_8k xs8k_e staged_row_wide xsw_e"
L[rmsnorm_residual]="staged_row_2k xs2k_e staged_row_8k xs8k_e staged_row_16k xs16k_e staged_row_wide"
for round in 1 2; do
    for p in softmax layernorm rmsnorm_residual; do
        l=${L[$p]}
        [ $round = 2 ] && l=$(echo $l | tr ' ' '\n' | tac | tr '\n' ' ')
        sel=""
        for s in $l; do sel+=" --schedule $s"; done
        # shellcheck disable=SC2086
        timeout 120 python3 tools/row_grid.py --json $D/r${round}_$p.json --pipeline $p \
            --dtype bfloat16 --dtype float16 --dtype float32 $ns --elements 26 $sel > $D/r${round}_$p.log 2>&1
        echo "round $round $p: exit $? at $SECONDS s" >> $D/log.txt
    done
    pack
done
cat $D/log.txt
