#!/usr/bin/env bash
# s32: the CPU choice with the table of medians (assemble.sh) compiled in, end to end
# (tools/choice_check.py: `fuselab run` with no tuning record, then every strategy timed at the
# shape): s31's seeds 3013 and 3014 again (68 of 72 within 1.10x with s31's table), then new
# seeds 3015 (N 200-120000) and 3103 (N 4-200).
#   bash results/runs/2026-12-05-cpu-s32/heldout/run.sh   (from the repository root, after ninja)
set -uo pipefail
H=results/runs/2026-12-05-cpu-s32/heldout
for seed in 3013 3014 3015 3103; do
    range=""
    [ $seed -ge 3100 ] && range="--n-range 4 200"
    t0=$SECONDS
    # shellcheck disable=SC2086
    python3 tools/choice_check.py build/cli/fuselab --target cpu --random 12 --seed $seed $range \
        --json $H/choice_check_$seed.json > $H/choice_check_$seed.txt 2> $H/choice_check_$seed.err
    echo "seed $seed: exit $? in $((SECONDS - t0)) s: $(tail -1 $H/choice_check_$seed.txt)"
done
