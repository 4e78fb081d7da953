#!/usr/bin/env bash
# s51: rows of 2^26 elements (twice the largest of results/cpu_xeon.json) for that table, on this
# VM: a 2-core Intel Xeon that names itself as the table's ("Intel(R) Xeon(R) Processor") but
# reports model 167 (AMX, a 480 MiB L3; ../cpu_machine.txt), as s50's second VM did. s50's worst
# held-out picks were 16-bit layernorm rows past 2^25 elements (1138x54860 1.48x, 394x116962
# 1.29x on model 167; 34850x1880 1.45x on model 207): `lane_rows` picked from the table's 2^25
# rows, `block_row` won. N = 16, 100, 256, 1000, 4096, 16384 and 65536 at 2^26 elements; every
# strategy and type of the three row pipelines, fuselab alone, one pass.
#   bash results/runs/2026-12-08-gpu-s51/xeon_big/rep.sh 1 [pipeline...]  (from the repository root)
set -uo pipefail
P=${1:?pass}; shift
R=results/runs/2026-12-08-gpu-s51/xeon_big/p$P
mkdir -p $R
F=build/cli/fuselab
pipes=${*:-softmax rmsnorm_residual layernorm}
e=$((1 << 26))
sizes=""
for n in 16 100 256 1000 4096 16384 65536; do sizes+=" --size ${n}x$(((e + n / 2) / n))"; done
date -u +%Y-%m-%dT%H:%M:%SZ
for p in $pipes; do
    t0=$SECONDS
    # shellcheck disable=SC2086
    $F bench --target cpu --pipeline $p --dtype float32 --dtype bfloat16 --dtype float16 $sizes \
        --json $R/big_$p.json > $R/big_$p.txt 2> $R/big_$p.err
    echo "big_$p: exit $? in $((SECONDS - t0)) s: $(grep -E '^[0-9]+ rows' $R/big_$p.txt)"
done
date -u +%Y-%m-%dT%H:%M:%SZ
