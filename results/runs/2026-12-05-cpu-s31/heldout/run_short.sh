#!/usr/bin/env bash
# s31: the CPU choice at short rows (N 4 .. 200, which tools/choice_check.py's default draw never
# reaches), 12 random shapes a seed x 3 pipelines, with a4f61b0's build (3881412's rule).
#   bash results/runs/2026-12-05-cpu-s31/heldout/run_short.sh   (from the repository root)
set -uo pipefail
H=results/runs/2026-12-05-cpu-s31/heldout
for seed in ${SEEDS:-3101 3102}; do
    t0=$SECONDS
    python3 tools/choice_check.py build/cli/fuselab --target cpu --random 12 --seed $seed \
        --n-range 4 200 --json $H/short_$seed.json > $H/short_$seed.txt 2> $H/short_$seed.err
    echo "short seed $seed: exit $? in $((SECONDS - t0)) s: $(tail -1 $H/short_$seed.txt)"
done
