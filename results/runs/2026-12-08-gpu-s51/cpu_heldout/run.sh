#!/usr/bin/env bash
# s51 (s50's run.sh): the CPU choice end to end on this VM, a 2-core Intel Xeon (model 167, AMX;
# ../cpu_machine.txt) that consults results/cpu_xeon.json: `fuselab run` with no tuning record at
# random row shapes, every strategy timed REPEAT times (each its median; tools/choice_check.py
# --repeat). CLI: this session's build with ../xeon_big's rows in the table (/tmp/fuselab_s51);
# --compare: the build before them (/tmp/fuselab_s50, s50's final tree), at the same shapes and
# times. New seeds: 51xx draw N in 200 .. 120000, 519x N in 4 .. 200; 2^20 .. 2^26 elements, or
# with E="LO HI" another range of log2 elements (the new rows' regime: 25 26.6).
#   REPEAT=3 [E="25 26.6"] bash results/runs/2026-12-08-gpu-s51/cpu_heldout/run.sh SEED...   (repository root)
set -uo pipefail
H=results/runs/2026-12-08-gpu-s51/cpu_heldout
empty=$(mktemp -d)
export FUSELAB_TUNING_FILE=$empty/tuning.json
for seed in "$@"; do
    range=""
    [ $((seed % 100)) -ge 90 ] && range="--n-range 4 200"
    t0=$SECONDS
    # shellcheck disable=SC2086
    .venv/bin/python tools/choice_check.py ${CLI:-/tmp/fuselab_s51} --target cpu --random 12 \
        --seed $seed $range ${E:+--log2-elements $E} ${REPEAT:+--repeat $REPEAT} \
        --compare ${COMPARE:-/tmp/fuselab_s50} \
        --json $H/choice_check_$seed.json > $H/choice_check_$seed.txt 2> $H/choice_check_$seed.err
    echo "seed $seed: exit $? in $((SECONDS - t0)) s: $(tail -2 $H/choice_check_$seed.txt | tr '\n' ' ')"
done
