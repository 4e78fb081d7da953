#!/usr/bin/env bash
# s43: issue 29's held-out check, the tables as this commit ships them (each card decides by its
# own device's table). tools/choice_check.py, seed $SEED: 12 shapes,
# N log-uniform in 200 .. 120000, each in the three row pipelines, the type in turn: `fuselab run`
# with no schedule and no tuning record, then every strategy timed at that shape (`fuselab
# bench`), the pick's time over the winner's. The JSON is rewritten after each case.
set -uo pipefail
[ -f .carry/fuselab ] || bash gpu/carry.sh --unpack || exit 1
export PYTHONUNBUFFERED=1 FUSELAB_LIBRARY=python/fuselab/libfuselab.so
D=/tmp/c1
mkdir -p $D
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    cat .carry/commit .carry/status
} > "$D/machine.txt" 2>&1
empty=$(mktemp -d)
trap 'tar czf "$OUT/c1.tar.gz" -C /tmp c1' EXIT
FUSELAB_TUNING_FILE=$empty/tuning.json timeout "${CHECK_S:-400}" python3 tools/choice_check.py \
    .carry/fuselab --target cuda --random 12 --seed "${SEED:=4301}" --json $D/choice_check_$SEED.json \
    > $D/choice_check_$SEED.txt 2>&1
echo "choice_check seed $SEED: exit $? at $SECONDS s: $(tail -1 $D/choice_check_$SEED.txt)" >> $D/log.txt
cat $D/log.txt
