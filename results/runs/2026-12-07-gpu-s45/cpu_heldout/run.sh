#!/usr/bin/env bash
# s45: the CPU choice end to end on this session's Zen 3 (../cpu_machine.txt; AVX2, no AVX-512),
# with results/cpu_avx2.json's three row pipelines (../zen3_rows) compiled in: `fuselab run` with
# no tuning record at random row shapes, then every strategy timed (tools/choice_check.py), and
# the CLI of s44's end (the tables before: rmsnorm_residual's own, softmax's and layernorm's the
# Zen 5's), copied to /tmp/fuselab_s44 before this session's build, picking at the same shapes,
# scored against the same timings (--compare). New seeds, none drawn before: 4501 to 4505 (N in
# 200 .. 120000) and 4591 (N in 4 .. 200). REPEAT=K: every strategy timed K times, each its
# median (choice_check --repeat; used after the CI for seeds 4506, 4507 and 4592).
#   bash results/runs/2026-12-07-gpu-s45/cpu_heldout/run.sh SEED...   (from the repository root)
set -uo pipefail
H=results/runs/2026-12-07-gpu-s45/cpu_heldout
empty=$(mktemp -d)
export FUSELAB_TUNING_FILE=$empty/tuning.json
for seed in "$@"; do
    range=""
    [ $((seed % 100)) -ge 90 ] && range="--n-range 4 200"
    t0=$SECONDS
    # shellcheck disable=SC2086
    .venv/bin/python tools/choice_check.py build/cli/fuselab --target cpu --random 12 --seed $seed \
        $range ${REPEAT:+--repeat $REPEAT} --compare /tmp/fuselab_s44 --json $H/choice_check_$seed.json \
        > $H/choice_check_$seed.txt 2> $H/choice_check_$seed.err
    echo "seed $seed: exit $? in $((SECONDS - t0)) s: $(tail -2 $H/choice_check_$seed.txt | tr '\n' ' ')"
done
