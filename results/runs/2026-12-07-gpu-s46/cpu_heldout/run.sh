#!/usr/bin/env bash
# s46: the CPU choice end to end on this Zen 3 (2 cores, AVX2, no AVX-512) with the final build
# (the far tier), `fuselab run` with no tuning record at random row shapes, every strategy timed
# REPEAT times (each its median; tools/choice_check.py --repeat), and the CLI of s45's end
# (/tmp/fuselab_s45end, copied before this session's change) picking at the same shapes
# (--compare). New seeds: 4611 to 4614 (N in 200 .. 120000), 4693 (N in 4 .. 200).
#   REPEAT=3 bash results/runs/2026-12-07-gpu-s46/cpu_heldout/run.sh SEED...   (repository root)
set -uo pipefail
H=results/runs/2026-12-07-gpu-s46/cpu_heldout
empty=$(mktemp -d)
export FUSELAB_TUNING_FILE=$empty/tuning.json
for seed in "$@"; do
    range=""
    [ $((seed % 100)) -ge 90 ] && range="--n-range 4 200"
    t0=$SECONDS
    # shellcheck disable=SC2086
    .venv/bin/python tools/choice_check.py build/cli/fuselab --target cpu --random 12 --seed $seed \
        $range ${REPEAT:+--repeat $REPEAT} --compare /tmp/fuselab_s45end --json $H/choice_check_$seed.json \
        > $H/choice_check_$seed.txt 2> $H/choice_check_$seed.err
    echo "seed $seed: exit $? in $((SECONDS - t0)) s: $(tail -2 $H/choice_check_$seed.txt | tr '\n' ' ')"
done
