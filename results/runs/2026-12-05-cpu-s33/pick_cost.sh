#!/usr/bin/env bash
# s33: the cost of the measured tables' lookup alone (pick_measured_across over the H200's and
# the H100's softmax tables, float32, the 200 shapes `fuselab overhead` asks, 2000 calls), old
# (63604f1's measured.cpp and measured.h) against new (this tree's), same shipped tables
# (build/runtime/shipped_measured.cpp), alternated three times; then `fuselab overhead --target
# cpu`'s choice cost, 63604f1's runtime (its CLI, FUSELAB_OLD_CLI) against this build's.
#   bash results/runs/2026-12-05-cpu-s33/pick_cost.sh   (from the repository root; needs build/)
set -euo pipefail
C=results/runs/2026-12-05-cpu-s33
T=$(mktemp -d)
mkdir -p $T/oldinc/fuselab
git show 63604f1:runtime/fuselab/measured.cpp > $T/old_measured.cpp
git show 63604f1:runtime/fuselab/measured.h > $T/oldinc/fuselab/measured.h
H=$(dirname "$(find .venv -name HalideRuntime.h | head -1)")
common=(-O2 -std=c++17 -Iruntime -Ibuild/runtime -I"$H")
g++ -I"$T/oldinc" "${common[@]}" $C/pick_cost.cpp $T/old_measured.cpp \
    build/runtime/shipped_measured.cpp -o $T/old
g++ "${common[@]}" $C/pick_cost.cpp runtime/fuselab/measured.cpp build/runtime/shipped_measured.cpp -o $T/new
grep -m1 "model name" /proc/cpuinfo; nproc; date -u +%Y-%m-%dT%H:%M:%SZ; git rev-parse HEAD
for k in 1 2 3; do
    echo "old: $($T/old | head -1)"
    echo "new: $($T/new | head -1)"
done
if [ -n "${FUSELAB_OLD_CLI:-}" ]; then
    for k in 1 2 3; do
        echo "overhead old: $($FUSELAB_OLD_CLI overhead --target cpu | sed -n 2p)"
        echo "overhead new: $(build/cli/fuselab overhead --target cpu | sed -n 2p)"
    done
fi
rm -rf $T
