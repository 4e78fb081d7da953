#!/usr/bin/env bash
# s43: the cases of p1/grid_rows that ran while a build shared the two cores (about 23:10-23:12:
# rmsnorm_residual from 64x65536 on, layernorm's first three sizes), timed again alone into fix/,
# which assemble.sh puts first.
#   bash results/runs/2026-12-06-gpu-s43/zen3_table/fix.sh   (from the repository root; build/)
set -uo pipefail
R=results/runs/2026-12-06-gpu-s43/zen3_table/fix
mkdir -p $R
F=build/cli/fuselab
sizes() { for s in "$@"; do echo --size "$s"; done; }
t="--dtype float32 --dtype bfloat16 --dtype float16"
date -u +%Y-%m-%dT%H:%M:%SZ
$F bench --target cpu --pipeline rmsnorm_residual $t $(sizes 4x1048576 8x524288 16x262144 \
    33x131072 48x87381 64x65536 100x41943 184x22000 512x8192 1000x4096 1417x2960 2048x2048 \
    4099x1024 8192x512 12345x340 20000x210 30008x140 50000x84 100003x40) \
    --json $R/rms.json > $R/rms.txt 2> $R/rms.err
echo "rms: exit $?: $(grep -E '^[0-9]+ rows' $R/rms.txt)"
$F bench --target cpu --pipeline layernorm $t $(sizes 4x1048576 8x524288 16x262144) \
    --json $R/ln.json > $R/ln.txt 2> $R/ln.err
echo "ln: exit $?: $(grep -E '^[0-9]+ rows' $R/ln.txt)"
date -u +%Y-%m-%dT%H:%M:%SZ
