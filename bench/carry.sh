#!/usr/bin/env bash
# Gathers what a GPU-machine call needs into .carry/ (ignored by git; name it, and
# python/fuselab/libfuselab.so, in the device tool's `carry`): the fuselab CLI, the test
# executable and CUPTI, from the build in $1 (default build/).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build}"
mkdir -p "$root/.carry"
cp "$build/cli/fuselab" "$build/tests/fuselab_tests" "$root/.carry/"
cp "$build/python/libfuselab.so" "$root/python/fuselab/libfuselab.so"
cp "$root"/.venv/lib/python3*/site-packages/nvidia/cuda_cupti/lib/libcupti.so.12 "$root/.carry/"
(cd "$root" && git rev-parse HEAD > .carry/commit && git status --porcelain > .carry/status)
du -sh "$root/.carry" "$root/python/fuselab/libfuselab.so"
