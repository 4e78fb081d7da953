#!/bin/bash
# One CPU run, workload by workload, so that each workload's strategies, its peers and the copy
# bandwidth of its floor are measured within a minute of each other on a shared machine:
# for each pipeline, the copy probe, `fuselab bench --pipeline W` (every CPU strategy and size),
# the CPU peers at fuselab's default CPU size, the probe again (around conv_relu_pool with the FMA
# peak). Then tools/cpu_run.py --assemble --dir OUT and results/report_cpu.py.
#   tools/cpu_run_all.sh OUT [PROBE]     PROBE: tools/cpu_probe_main.cpp built (default /tmp/cpu_probe)
set -u
out=$1
probe=${2:-/tmp/cpu_probe}
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
mkdir -p "$out"
cd "$root"
for wl in add_relu pointwise_chain branches branches_indep conv_relu_pool blur3x3 stencil_chain_k2 \
    stencil_chain_k4 stencil_chain_k8; do
    mode=copy
    [ "$wl" = conv_relu_pool ] && mode=all
    { date -u +%FT%TZ; uptime; } >> "$out/load.txt"
    "$probe" 0 64 $mode > "$out/$wl.probe_before.txt" 2>&1
    build/cli/fuselab bench --target cpu --pipeline "$wl" --json "$out/$wl.bench.json" \
        > "$out/$wl.bench.txt" 2> "$out/$wl.bench.err"
    .venv/bin/python tools/cpu_run.py --default-sizes --budget 0.5 --peers-json "$out/$wl.peers.json" "$wl" \
        > "$out/$wl.peers.txt" 2> "$out/$wl.peers.err"
    "$probe" 0 64 $mode > "$out/$wl.probe_after.txt" 2>&1
done
{ date -u +%FT%TZ; uptime; } >> "$out/load.txt"
