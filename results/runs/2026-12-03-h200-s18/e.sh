#!/usr/bin/env bash
# s18's fifth call on the H200 (commit after the measured table took d/'s 24 random shapes): the
# choice, with the denser table, at c.sh's shapes (seed 1803; none of them in d/'s draw), at row shapes drawn at random (issue 29's
# second target): tools/choice_check.py --random 12 (36 cases: 12 shapes x 3 pipelines, the
# storage type in turn), each `fuselab run` with no tuning record against every strategy timed
# at that shape in one `fuselab bench`.
set -uo pipefail
bash gpu/carry.sh --unpack || exit 1
export FUSELAB_REQUIRE_CUDA=1 PYTHONUNBUFFERED=1
mkdir -p /tmp/e
{ date -u +%Y-%m-%dT%H:%M:%SZ; nvidia-smi --query-gpu=name,driver_version --format=csv; cat .carry/commit .carry/status; } > "$OUT/machine.txt" 2>&1
timeout 500 python3 tools/choice_check.py .carry/fuselab --target cuda --random 12 --seed "${SEED:-1803}" \
    --json /tmp/e/choice_check.json > /tmp/e/choice_check.txt 2>&1
echo "choice_check: exit $? at $SECONDS s" >> "$OUT/log.txt"
tail -45 /tmp/e/choice_check.txt >> "$OUT/log.txt"
tar czf "$OUT/e.tar.gz" -C /tmp e
cat "$OUT/log.txt"
