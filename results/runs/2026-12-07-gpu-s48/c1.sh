#!/usr/bin/env bash
# s48: issue 29's held-out check on the card this call got (tools/choice_check.py: `fuselab run`
# with no tuning record picks, then every strategy is timed at the same shape, same run), new seeds:
# 4801 and 4802 (N 200 .. 120000), 4891 (N 4 .. 200), 12 random row shapes each, the three
# pipelines, the type in turn. Each seed is cut by its timeout; the cases done are kept.
set -uo pipefail
[ -f .carry/fuselab ] || bash gpu/carry.sh --unpack || exit 1
export FUSELAB_LIBRARY=python/fuselab/libfuselab.so
D=/tmp/c1; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/machine.txt
cat .carry/commit >> $D/machine.txt
for seed in ${SEEDS:-4801 4802 4891}; do
    range="200 120000"; [ $seed -ge 4890 ] && range="4 200"
    # shellcheck disable=SC2086
    timeout ${SEED_TIMEOUT:-150} python3 tools/choice_check.py .carry/fuselab --target cuda --random 12 \
        --seed $seed --n-range $range --json $D/choice_check_$seed.json \
        > $D/choice_check_$seed.txt 2> $D/choice_check_$seed.err
    echo "seed $seed: exit $? at $SECONDS s: $(tail -1 $D/choice_check_$seed.txt)" >> $D/log.txt
    tar czf "$OUT/c1.tar.gz" -C /tmp c1
done
cat $D/log.txt
