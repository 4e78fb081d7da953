#!/usr/bin/env bash
# Gathers what a GPU-machine call needs into .carry/ (ignored by git; name .carry in the device
# tool's `carry`): the fuselab CLI, the test executable, libfuselab.so and CUPTI from the build in
# $1 (default build/), packed as .carry/bin.tar.zst: zstd with a 1 GiB window, so that the three
# executables' shared PTX is stored once (20 MB where xz made 47 of 630; a call carries 64 MiB at
# most, the tracked files included). zstd's own executable travels beside it, for a GPU machine
# without one. On the GPU machine, `bash gpu/carry.sh --unpack` puts them back:
# .carry/{fuselab,fuselab_tests,libcupti.so.12} and python/fuselab/libfuselab.so.
# It also copies the Liger-Kernel wheel of the row reductions' peers (peers/row_peers.py installs
# it there with pip --no-index: the GPU machine has no network) from gpu/wheels/ (downloaded there
# once if absent), checked against gpu/wheels/SHA256SUMS, to .carry/wheels/.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [ "${1:-}" = "--unpack" ]; then
    zstd=zstd
    command -v zstd > /dev/null || zstd="$root/.carry/zstd"
    "$zstd" -dc --long=30 "$root/.carry/bin.tar.zst" | tar xf - -C "$root/.carry"
    mv "$root/.carry/libfuselab.so" "$root/python/fuselab/libfuselab.so"
    exit 0
fi
build="${1:-$root/build}"
stage="$(mktemp -d)"
cp "$build/cli/fuselab" "$build/tests/fuselab_tests" "$build/python/libfuselab.so" "$stage/"
cp "$root"/.venv/lib/python3*/site-packages/nvidia/cuda_cupti/lib/libcupti.so.12 "$stage/"
rm -rf "$root/.carry" && mkdir -p "$root/.carry"
tar cf - -C "$stage" . | zstd -q -19 --long=30 -T2 -o "$root/.carry/bin.tar.zst"
cp "$(command -v zstd)" "$root/.carry/zstd"
rm -rf "$stage"
wheels="$root/gpu/wheels"
liger=liger_kernel-0.8.5-py3-none-any.whl
if [ ! -f "$wheels/$liger" ]; then
    "$root/.venv/bin/pip" download liger-kernel==0.8.5 --no-deps -d "$wheels" > /dev/null 2>&1 ||
        echo "carry.sh: could not download $liger; the liger peers will record why" >&2
fi
if [ -f "$wheels/$liger" ] && (cd "$wheels" && sha256sum --check --quiet SHA256SUMS); then
    mkdir -p "$root/.carry/wheels" && cp "$wheels/$liger" "$root/.carry/wheels/"
else
    echo "carry.sh: no verified $liger in gpu/wheels/; not carried" >&2
fi
(cd "$root" && git rev-parse HEAD > .carry/commit && git status --porcelain > .carry/status)
du -sh "$root/.carry"
