#!/usr/bin/env bash
# s48: the three row pipelines' CPU table on this session's VM, a 2-core Intel Xeon (model 207,
# AVX-512; ../cpu_machine.txt), which no shipped table names (s47 made such a CPU consult every
# CPU table, its own instruction set's first: 129 of 144 held-out cases within 1.10x, worst 1.40x,
# results/runs/2026-12-07-gpu-s47/cpu_heldout). The shapes are s45's Zen 3 table's (zen3_rows and
# zen3_short: every row shape of the CPU table, the suite's three, two M-bands of eight lengths,
# short rows of N = 3 to 15), every strategy and type, fuselab alone. Run twice (p1/, p2/);
# assemble.sh takes each cell's median.
#   bash results/runs/2026-12-07-gpu-s48/xeon_rows/rep.sh 1   (from the repository root; build/)
set -uo pipefail
P=${1:?pass}
R=results/runs/2026-12-07-gpu-s48/xeon_rows/p$P
mkdir -p $R
F=build/cli/fuselab
run() {  # name, then bench arguments
    local name=$1; shift
    local t0=$SECONDS
    $F bench --target cpu "$@" --json $R/$name.json > $R/$name.txt 2> $R/$name.err
    echo "$name: exit $? in $((SECONDS - t0)) s: $(grep -E '^[0-9]+ rows' $R/$name.txt)"
}
sizes() { for s in "$@"; do echo --size "$s"; done; }
msizes() {  # elements, then row lengths
    local e=$1; shift
    for n in "$@"; do echo --size "${n}x$(((e + n / 2) / n))"; done
}
rows() { echo --pipeline softmax --pipeline rmsnorm_residual --pipeline layernorm \
    --dtype float32 --dtype bfloat16 --dtype float16; }
date -u +%Y-%m-%dT%H:%M:%SZ
run grid_rows $(rows) $(sizes 4x1048576 8x524288 16x262144 33x131072 48x87381 64x65536 100x41943 \
    184x22000 512x8192 1000x4096 1417x2960 2048x2048 4099x1024 8192x512 12345x340 20000x210 \
    30008x140 50000x84 100003x40)
run rows_m25 $(rows) $(sizes 16x2097152 48x699051 100x335544 256x131072 1000x33554 4096x8192 \
    16384x2048 65536x512)
run rows_m19 $(rows) $(sizes 16x32768 100x5243 1000x524 4096x128 16384x32 65536x8)
lengths="20 64 200 700 2500 9000 30000 100000"
run suite $(rows) $(sizes 256x16384 4096x1024 65536x64)
run rows_m21 $(rows) $(msizes $((1 << 21)) $lengths)
run rows_m23 $(rows) $(msizes $((1 << 23)) $lengths)
short=""
for n in 3 6 7 9 11 13 15; do short+=" --size ${n}x$((((1 << 22) + n / 2) / n))"; done
# shellcheck disable=SC2086
run short $(rows) $short
date -u +%Y-%m-%dT%H:%M:%SZ
echo done
