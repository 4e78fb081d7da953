#!/usr/bin/env bash
# s49 (s48's run.sh): the CPU choice end to end on this VM, the 2-core Intel Xeon (model 207,
# AVX-512) of s47 and s48: `fuselab run` with no tuning record at random row shapes, every strategy
# timed REPEAT times (each its median; tools/choice_check.py --repeat). CLI: the build with this
# session's table (results/cpu_xeon.json with ../xeon_short's short rows at 2^20 and 2^25
# elements; /tmp/fuselab_s49, a copy of build/cli/fuselab); --compare: s48's build (/tmp/fuselab_s48,
# the table without them), at the same shapes and times. New seeds: 4911, 4912 (N in 200 ..
# 120000), 4991, 4992 (N in 4 .. 200).
#   REPEAT=3 bash results/runs/2026-12-07-gpu-s49/cpu_heldout/run.sh SEED...   (repository root)
set -uo pipefail
H=results/runs/2026-12-07-gpu-s49/cpu_heldout
empty=$(mktemp -d)
export FUSELAB_TUNING_FILE=$empty/tuning.json
for seed in "$@"; do
    range=""
    [ $((seed % 100)) -ge 90 ] && range="--n-range 4 200"
    t0=$SECONDS
    # shellcheck disable=SC2086
    .venv/bin/python tools/choice_check.py ${CLI:-/tmp/fuselab_s49} --target cpu --random 12 \
        --seed $seed $range ${REPEAT:+--repeat $REPEAT} --compare ${COMPARE:-/tmp/fuselab_s48} \
        --json $H/choice_check_$seed.json > $H/choice_check_$seed.txt 2> $H/choice_check_$seed.err
    echo "seed $seed: exit $? in $((SECONDS - t0)) s: $(tail -2 $H/choice_check_$seed.txt | tr '\n' ' ')"
done
