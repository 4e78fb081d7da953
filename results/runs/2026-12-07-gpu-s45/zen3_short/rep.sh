#!/usr/bin/env bash
# s45: short rows of lengths that are not whole 16-byte vectors in float32 (3, 6, 7, 9, 11, 13,
# 15), 2^22 elements, the three row pipelines, every strategy and type, on this Zen 3. The table
# had only whole-vector lengths below 16 (4 and 8), and a float32 call at N = 5 found none of
# them near once its vector term was added (measured.cpp): seed 4592's softmax float32
# 5x218082 fell to the model, which picked block_row, 7.15x behind lane_rows
# (../cpu_heldout/choice_check_4592.txt). N = 5 itself is left out. Run twice (p1/, p2/).
#   bash results/runs/2026-12-07-gpu-s45/zen3_short/rep.sh 1   (from the repository root; build/)
set -uo pipefail
P=${1:?pass}
R=results/runs/2026-12-07-gpu-s45/zen3_short/p$P
mkdir -p $R
sizes=""
for n in 3 6 7 9 11 13 15; do sizes+=" --size ${n}x$((((1 << 22) + n / 2) / n))"; done
t0=$SECONDS
# shellcheck disable=SC2086
build/cli/fuselab bench --target cpu --pipeline softmax --pipeline rmsnorm_residual \
    --pipeline layernorm --dtype float32 --dtype bfloat16 --dtype float16 $sizes \
    --json $R/short.json > $R/short.txt 2> $R/short.err
echo "short: exit $? in $((SECONDS - t0)) s: $(grep -E '^[0-9]+ rows' $R/short.txt)"
