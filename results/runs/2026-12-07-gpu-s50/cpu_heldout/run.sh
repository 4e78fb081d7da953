#!/usr/bin/env bash
# s50 (s49's run.sh): the CPU choice end to end on this VM, the 2-core Intel Xeon (model 207,
# AVX-512) of s47 to s49: `fuselab run` with no tuning record at random row shapes, every strategy
# timed REPEAT times (each its median; tools/choice_check.py --repeat). CLI: this session's final
# build (/tmp/fuselab_s50, a copy of build/cli/fuselab: results/cpu_xeon.json with ../xeon_mid's
# rows, and the Xeon's whole vectors counted in 16 float32 lanes, ../lanes/); --compare: s49's
# build (/tmp/fuselab_s49), at the same shapes and times. New seeds: 5011, 5012 (N in 200 ..
# 120000), 5091, 5092 (N in 4 .. 200). The second try (../README.txt), on another Xeon of the same
# name (model 167), ran 5092 again (cut off on the first) and 5013, 5093 with its own build of the
# same tree (CLI=/tmp/fuselab_s50b) and s49's built again (COMPARE=/tmp/fuselab_s49).
#   REPEAT=3 bash results/runs/2026-12-07-gpu-s50/cpu_heldout/run.sh SEED...   (repository root)
set -uo pipefail
H=results/runs/2026-12-07-gpu-s50/cpu_heldout
empty=$(mktemp -d)
export FUSELAB_TUNING_FILE=$empty/tuning.json
for seed in "$@"; do
    range=""
    [ $((seed % 100)) -ge 90 ] && range="--n-range 4 200"
    t0=$SECONDS
    # shellcheck disable=SC2086
    .venv/bin/python tools/choice_check.py ${CLI:-/tmp/fuselab_s50} --target cpu --random 12 \
        --seed $seed $range ${REPEAT:+--repeat $REPEAT} --compare ${COMPARE:-/tmp/fuselab_s49} \
        --json $H/choice_check_$seed.json > $H/choice_check_$seed.txt 2> $H/choice_check_$seed.err
    echo "seed $seed: exit $? in $((SECONDS - t0)) s: $(tail -2 $H/choice_check_$seed.txt | tr '\n' ' ')"
done
