#!/usr/bin/env bash
# s42: the CPU choice end to end after softmax/block_row's scratch moved to the stack: `fuselab
# run` with no tuning record at random row shapes, then every strategy timed
# (tools/choice_check.py); s41's seeds 4101, 3015, 4102 (N 200-120000), then new ones.
#   bash results/runs/2026-12-06-gpu-s42/cpu_heldout/run.sh SEED...   (from the repository root)
set -uo pipefail
# OUTDIR: the subfolder (s41_table: the CPU table as s41 shipped it; table3: its row cells as
# medians of three passes, ../cpu_table/)
H=results/runs/2026-12-06-gpu-s42/cpu_heldout/${OUTDIR:-table3}
empty=$(mktemp -d)
export FUSELAB_TUNING_FILE=$empty/tuning.json
for seed in "$@"; do
    range=""
    [ $((seed % 100)) -ge 90 ] && range="--n-range 4 200"
    t0=$SECONDS
    # shellcheck disable=SC2086
    .venv/bin/python tools/choice_check.py build/cli/fuselab --target cpu --random 12 --seed $seed \
        $range --json $H/choice_check_$seed.json > $H/choice_check_$seed.txt 2> $H/choice_check_$seed.err
    echo "seed $seed: exit $? in $((SECONDS - t0)) s: $(tail -1 $H/choice_check_$seed.txt)"
done
