#!/usr/bin/env bash
# s51 (issue 29's GPU part): tools/choice_check.py on the H200 at new seeds, 12 random row shapes
# each over the three row pipelines (the type in turn): `fuselab run` with no tuning record picks,
# then every strategy is timed at the same shape in the same call.
set -uo pipefail
[ -f .carry/fuselab ] || bash gpu/carry.sh --unpack || exit 1
export FUSELAB_LIBRARY=python/fuselab/libfuselab.so
D=/tmp/c1; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/machine.txt
cat .carry/commit .carry/status >> $D/machine.txt
for seed in 5101 5102 5191; do
    range="200 120000"; [ $seed = 5191 ] && range="4 200"
    # shellcheck disable=SC2086
    timeout 150 python3 tools/choice_check.py .carry/fuselab --target cuda --random 12 --seed $seed \
        --n-range $range --json $D/choice_check_$seed.json > $D/choice_check_$seed.txt 2> $D/choice_check_$seed.err
    echo "seed $seed: exit $? at $SECONDS s: $(tail -1 $D/choice_check_$seed.txt)" >> $D/log.txt
    tar czf "$OUT/c1.tar.gz" -C /tmp c1
done
cat $D/log.txt
