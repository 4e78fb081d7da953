#!/usr/bin/env bash
# s23's eighth call, right after e.sh: b.sh's timing on the build of e.sh (the output cut by the
# vector first). b.sh's header follows.
#   1. warp_regs_1k at every shape of the shipped table where it runs (N <= 1024: 41 shapes, the
#      three types and pipelines), for the choice's measured table (its s22 records are of the
#      unpadded form).
#   2. Every fused strategy and the peers (eager, torch.compile, Liger) and the copy, in this call,
#      at short rows the suite never names (N = 184, 280, 736, 1000) and at its own 256 and 1024,
#      2^25 elements.
set -uo pipefail
[ -x .carry/fuselab ] || bash gpu/carry.sh --unpack || exit 1
export FUSELAB_REQUIRE_CUDA=1 PYTHONUNBUFFERED=1 FUSELAB_LIBRARY=python/fuselab/libfuselab.so
export FUSELAB_TORCH_EXT_DIR=/tmp/torch_ext
D=/tmp/f
mkdir -p $D
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    cat .carry/commit .carry/status
} > "$OUT/machine.txt" 2>&1
pack() { tar czf "$OUT/f.tar.gz" -C /tmp f; }
shapes=""
for s in 184x11398 184x45590 184x182361 221x9489 221x37958 221x151830 224x62462 238x10890 256x262144 258x11911 280x7490 280x29959 280x119837 327x5853 346x5925 377x5563 377x22251 377x89004 394x39136 443x66900 448x4681 448x18725 448x74898 492x12906 493x8514 494x5898 512x131072 557x3765 557x15060 557x60241 573x8202 623x25022 721x6347 736x2849 736x11398 736x45590 901x2328 901x9310 901x37241 1000x67108 1024x65536; do shapes+=" --shape $s"; done
# shellcheck disable=SC2086
timeout 150 python3 tools/row_grid.py --json $D/grid_wr.json --schedule warp_regs_1k $shapes \
    > $D/grid_wr.log 2>&1
echo "row_grid warp_regs_1k: exit $? at $SECONDS s: $(tail -1 $D/grid_wr.log)" >> "$OUT/log.txt"
pack
short="--shape 184x182361 --shape 280x119837 --shape 736x45590 --shape 1000x33554 --shape 256x131072 --shape 1024x32768"
# shellcheck disable=SC2086
timeout 120 python3 tools/row_grid.py --json $D/short.json $short > $D/short.log 2>&1
echo "row_grid short rows: exit $? at $SECONDS s: $(tail -1 $D/short.log)" >> "$OUT/log.txt"
pack
timeout 170 python3 peers/peers.py --workload rows --skip-autotune --time-budget 160 \
    ${short//--shape/--size} --json $D/peers_short.json > $D/peers.log 2>&1
echo "peers: exit $? at $SECONDS s" >> "$OUT/log.txt"
tail -3 $D/peers.log >> "$OUT/log.txt"
pack
cat "$OUT/log.txt"
