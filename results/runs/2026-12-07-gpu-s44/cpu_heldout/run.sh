#!/usr/bin/env bash
# s44: the CPU choice end to end on this session's Zen 3 (../cpu_machine.txt; AVX2, no AVX-512: it
# consults the shipped AMD EPYC table, timed on a Zen 5), with s44's rmsnorm_residual CPU forms
# (../cpu_rms): `fuselab run` with no tuning record at random row shapes, then every strategy
# timed (tools/choice_check.py); s43's seeds (4101, 4301-4303: s43 cpu_heldout/zen3_shipped).
#   bash results/runs/2026-12-07-gpu-s44/cpu_heldout/run.sh SEED...   (from the repository root)
set -uo pipefail
# OUTDIR: the subfolder (shipped: the tables as shipped at s44's start; own: with results/cpu_avx2.json,
# this CPU's rmsnorm_residual table, ../zen3_rms, compiled in)
H=results/runs/2026-12-07-gpu-s44/cpu_heldout/${OUTDIR:-shipped}
mkdir -p $H
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
