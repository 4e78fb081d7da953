#!/usr/bin/env bash
# s46: every shipped table's leave-one-out (fuselab tune --fit), by the CLI given (default
# build/cli/fuselab), into OUTDIR/loo_<table>.txt.
#   bash results/runs/2026-12-07-gpu-s46/far/loo.sh OUTDIR [CLI]   (repository root)
set -euo pipefail
out=$1; cli=${2:-build/cli/fuselab}
mkdir -p "$out"
for t in h200 h100 cpu cpu_avx2; do
    FUSELAB_TUNING_FILE=$(mktemp -d)/t.json "$cli" tune --fit results/$t.json > "$out/loo_$t.txt"
done
