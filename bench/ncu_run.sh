#!/usr/bin/env bash
# Measured traffic and launches: Nsight Compute over one call of each variant (via `fuselab run`
# on .npy files), DRAM bytes read and written per kernel. Runs on the GPU machine; the clocks are
# left as they are (--clock-control none). Usage: bench/ncu_run.sh OUTFILE
set -uo pipefail
BIN="${BIN:-.carry}"
out="$1"
d=/tmp/fuselab-ncu
mkdir -p "$d"
python3 - "$d" <<'PY'
import sys, numpy as np
d = sys.argv[1]
r = np.random.default_rng(1)
u = lambda *s: r.uniform(-1, 1, s).astype(np.float32)
for n in ["a", "b", "x", "y"]:
    np.save(f"{d}/{n}.npy", u(1 << 24))
np.save(f"{d}/in.npy", u(4098, 4098))
np.save(f"{d}/input.npy", u(3, 1080, 1920))
np.save(f"{d}/weights.npy", u(16, 3, 3, 3))
np.save(f"{d}/bias.npy", u(16))
PY
ncu_one() {  # pipeline schedule inputs... -- outputs...
    local p=$1 s=$2; shift 2
    echo "### $p $s"
    timeout 120 ncu --clock-control none --csv --metrics dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum \
        "$BIN/fuselab" run "$p" --schedule "$s" --target cuda "$@" 2>&1 | grep -E '^"[0-9]' || echo "ncu failed"
}
{
    for s in unfused fused seed_unfused seed_fused; do
        ncu_one add_relu $s a=$d/a.npy b=$d/b.npy -o out=$d/o.npy
    done
    for s in unfused grouped5 fused; do ncu_one pointwise_chain $s x=$d/x.npy -o out=$d/o.npy; done
    for s in separate horizontal; do ncu_one branches $s x=$d/x.npy -o out1=$d/o.npy; done
    for s in root inline_rows tiled; do ncu_one blur3x3 $s in=$d/in.npy -o out=$d/o.npy; done
    for s in unfused relu_inlined tiled; do
        ncu_one conv_relu_pool $s input=$d/input.npy weights=$d/weights.npy bias=$d/bias.npy -o out=$d/o.npy
    done
} > "$out" 2>&1
