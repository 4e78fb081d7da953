#!/usr/bin/env bash
# s41: the CPU choice end to end with the CPU rows' new tasks (cpu_rows_per_task) and the CPU
# table as shipped (timed before the change): `fuselab run` with no tuning record at random row
# shapes, then every strategy timed (tools/choice_check.py), new seeds 4101-4103 (N 200-120000)
# and 4191 (N 4-200), and s32's seeds 3015 and 3103 again.
#   bash results/runs/2026-12-06-gpu-s41/cpu_heldout/run.sh   (from the repository root; build/)
set -uo pipefail
H=results/runs/2026-12-06-gpu-s41/cpu_heldout
empty=$(mktemp -d)
export FUSELAB_TUNING_FILE=$empty/tuning.json
for seed in 4101 4102 4103 4191 3015 3103; do
    range=""
    [ $((seed % 100)) -ge 90 ] || [ $seed = 3103 ] && range="--n-range 4 200"
    t0=$SECONDS
    # shellcheck disable=SC2086
    .venv/bin/python tools/choice_check.py build/cli/fuselab --target cpu --random 12 --seed $seed \
        $range --json $H/choice_check_$seed.json > $H/choice_check_$seed.txt 2> $H/choice_check_$seed.err
    echo "seed $seed: exit $? in $((SECONDS - t0)) s: $(tail -1 $H/choice_check_$seed.txt)"
done
