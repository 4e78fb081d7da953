#!/usr/bin/env bash
# s39: issue 29's held-out check (the build of g2, with the chunk-fill term; earlier: s38 (41ccb8b:
# the H200's row table from g4 and g7, the new strategies in it; an H100 came, so its own table
# decided, the H200's where the H100's had nothing near). tools/choice_check.py, seed $SEED
# (3801, then 3802 with CHECK_S=200 on the same machine; 12
# shapes, N log-uniform in 200 .. 120000, each in the three row pipelines, the type in turn):
# `fuselab run` with no schedule and no tuning record, then every strategy timed at that shape
# (`fuselab bench`), the pick's time over the winner's. The JSON is rewritten after each case, so
# a run cut by the call's limit keeps what it measured.
set -uo pipefail
bash gpu/carry.sh --unpack || exit 1
export PYTHONUNBUFFERED=1 FUSELAB_LIBRARY=python/fuselab/libfuselab.so
D=/tmp/g8
mkdir -p $D
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    cat .carry/commit .carry/status
} > "$D/machine.txt" 2>&1
empty=$(mktemp -d)
trap 'tar czf "$OUT/g8.tar.gz" -C /tmp g8' EXIT
FUSELAB_TUNING_FILE=$empty/tuning.json timeout "${CHECK_S:-330}" python3 tools/choice_check.py \
    .carry/fuselab --target cuda --random 12 --seed "${SEED:=3901}" --json $D/choice_check_$SEED.json \
    > $D/choice_check_$SEED.txt 2>&1
echo "choice_check seed $SEED: exit $? at $SECONDS s: $(tail -1 $D/choice_check_$SEED.txt)" >> $D/log.txt
cat $D/log.txt
