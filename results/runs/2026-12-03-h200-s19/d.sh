#!/usr/bin/env bash
# s19's fourth call on the H200 (commit after assemble.sh: the measured table with this session's
# grids): the choice at 12 row shapes drawn at random with a seed no session used (1919), 36
# cases (12 shapes x 3 pipelines, the storage type in turn), each `fuselab run` with no tuning
# record against every strategy timed at that shape in one `fuselab bench`
# (tools/choice_check.py; issue 29's second target).
set -uo pipefail
bash gpu/carry.sh --unpack || exit 1
export FUSELAB_REQUIRE_CUDA=1 PYTHONUNBUFFERED=1
mkdir -p /tmp/d
{ date -u +%Y-%m-%dT%H:%M:%SZ; nvidia-smi --query-gpu=name,driver_version --format=csv; cat .carry/commit .carry/status; } > "$OUT/machine.txt" 2>&1
timeout 400 python3 tools/choice_check.py .carry/fuselab --target cuda --random 12 --seed "${SEED:-1919}" \
    --json /tmp/d/choice_check.json > /tmp/d/choice_check.txt 2>&1
echo "choice_check: exit $? at $SECONDS s" >> "$OUT/log.txt"
tail -45 /tmp/d/choice_check.txt >> "$OUT/log.txt"
tar czf "$OUT/d.tar.gz" -C /tmp d
cat "$OUT/log.txt"
