#!/usr/bin/env bash
# s31: the CPU choice at 12 random row shapes a seed x 3 pipelines (tools/choice_check.py), with the
# table of assemble.sh (the element-count feature, the m/ shapes) compiled in: seed 3007 first (no
# session chose anything on it), then s30's 3005 and 3006 (the weights were chosen on them).
#   bash results/runs/2026-12-05-cpu-s31/heldout/run.sh   (from the repository root, after ninja)
set -uo pipefail
H=results/runs/2026-12-05-cpu-s31/heldout
for seed in ${SEEDS:-3007 3005 3006}; do
    t0=$SECONDS
    python3 tools/choice_check.py build/cli/fuselab --target cpu --random 12 --seed $seed \
        --json $H/choice_check_$seed.json > $H/choice_check_$seed.txt 2> $H/choice_check_$seed.err
    echo "seed $seed: exit $? in $((SECONDS - t0)) s: $(tail -1 $H/choice_check_$seed.txt)"
done
