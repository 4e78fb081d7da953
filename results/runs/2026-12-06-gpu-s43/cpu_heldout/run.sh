#!/usr/bin/env bash
# s43: the CPU choice end to end on this session's CPU (AMD EPYC family 25 model 1, Zen 3: AVX2,
# no AVX-512; the shipped CPU table was timed on a Zen 5 of the same model name): `fuselab
# run` with no tuning record at random row shapes, then every strategy timed
# (tools/choice_check.py); s41's seeds 4101, 3015, 4102 (N 200-120000), then new ones.
#   bash results/runs/2026-12-06-gpu-s43/cpu_heldout/run.sh SEED...   (from the repository root)
set -uo pipefail
# OUTDIR: the subfolder (zen3_shipped: the tables as shipped at the start of s43; zen3_own: this
# CPU named "AMD EPYC (no AVX-512)", its own row table, results/cpu_avx2.json, first)
H=results/runs/2026-12-06-gpu-s43/cpu_heldout/${OUTDIR:-zen3_shipped}
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
