#!/usr/bin/env bash
# s33 call d: the choice's cost at a new shape, old (63604f1's runtime) against new (1305b7c's:
# variants indexed by pipeline, check()'s words only on failure, the tuning file shared, log2
# extents once), the same host and process order alternated: `fuselab overhead --target cuda`,
# three runs each, no tuning file. .carry/fuselab_old.zst: 63604f1's CLI (runtime sources of
# 63604f1 built against this build's variants).
set -uo pipefail
bash gpu/carry.sh --unpack || exit 1
.carry/zstd -dc --long=30 .carry/fuselab_old.zst > .carry/fuselab_old && chmod +x .carry/fuselab_old
D=/tmp/d
mkdir -p $D
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv
    grep -m1 "model name" /proc/cpuinfo; nproc
    cat .carry/commit
} > "$D/machine.txt" 2>&1
export FUSELAB_TUNING_FILE=$(mktemp -d)/tuning.json
for k in 1 2 3; do
    for b in old new; do
        exe=.carry/fuselab; [ $b = old ] && exe=.carry/fuselab_old
        timeout 30 $exe overhead --target cuda --json $D/overhead_${b}_$k.json > $D/overhead_${b}_$k.log 2>&1
        echo "$b $k: exit $? $(sed -n 2p $D/overhead_${b}_$k.log)" >> $D/log.txt
    done
done
tar czf "$OUT/d.tar.gz" -C /tmp d
cat $D/log.txt
