#!/usr/bin/env bash
# s46's second call, on the H100 left warm by pick2.sh's n1.sh: t1.sh (the CUDA tests and the CLI
# sweep, with this session's runtime: the far tier of measured.h), then tools/choice_check.py at
# new seeds (12 random row shapes each, three pipelines, the type in turn), every strategy timed.
set -uo pipefail
[ -f .carry/fuselab ] || bash gpu/carry.sh --unpack || exit 1
bash results/runs/2026-12-07-gpu-s46/t1.sh
export FUSELAB_LIBRARY=python/fuselab/libfuselab.so
D=/tmp/c1; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/machine.txt
for seed in 4601 4602 4691; do
    range="200 120000"; [ $seed = 4691 ] && range="4 200"
    # shellcheck disable=SC2086
    timeout 120 python3 tools/choice_check.py .carry/fuselab --target cuda --random 12 --seed $seed \
        --n-range $range --json $D/choice_check_$seed.json > $D/choice_check_$seed.txt 2> $D/choice_check_$seed.err
    echo "seed $seed: exit $? at $SECONDS s: $(tail -1 $D/choice_check_$seed.txt)" >> $D/log.txt
    tar czf "$OUT/c1.tar.gz" -C /tmp c1
done
cat $D/log.txt
