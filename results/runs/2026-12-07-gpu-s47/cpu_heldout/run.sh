#!/usr/bin/env bash
# s47: the CPU choice end to end on this VM, a 2-core Intel Xeon (model 207, AVX-512), a CPU that
# no shipped table names: `fuselab run` with no tuning record at random row shapes, every strategy
# timed REPEAT times (each its median; tools/choice_check.py --repeat). CLI: the build where a CPU
# no table names consults every shipped CPU table, its own instruction set's first
# (/tmp/fuselab_cpufallback, a copy of build/cli/fuselab); --compare: HEAD's build before that
# change (/tmp/fuselab_before: there the cost model decides on such a CPU), at the same shapes and
# times. New seeds: 4711 to 4713 (N in 200 .. 120000), 4791 (N in 4 .. 200).
#   REPEAT=3 bash results/runs/2026-12-07-gpu-s47/cpu_heldout/run.sh SEED...   (repository root)
set -uo pipefail
H=results/runs/2026-12-07-gpu-s47/cpu_heldout
empty=$(mktemp -d)
export FUSELAB_TUNING_FILE=$empty/tuning.json
for seed in "$@"; do
    range=""
    [ $((seed % 100)) -ge 90 ] && range="--n-range 4 200"
    t0=$SECONDS
    # shellcheck disable=SC2086
    .venv/bin/python tools/choice_check.py ${CLI:-/tmp/fuselab_cpufallback} --target cpu --random 12 \
        --seed $seed $range ${REPEAT:+--repeat $REPEAT} --compare ${COMPARE:-/tmp/fuselab_before} \
        --json $H/choice_check_$seed.json > $H/choice_check_$seed.txt 2> $H/choice_check_$seed.err
    echo "seed $seed: exit $? in $((SECONDS - t0)) s: $(tail -2 $H/choice_check_$seed.txt | tr '\n' ' ')"
done
