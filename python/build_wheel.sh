#!/usr/bin/env bash
# The fuselab wheel from a copy of this folder (setuptools' build folders stay out of the tree)
# with the given libfuselab.so inside; prints the wheel's path.
#   python/build_wheel.sh PYTHON LIBFUSELAB_SO OUT_DIR     (PYTHON: one with setuptools and wheel)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
python="$1" lib="$2" out="$3"
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
cp -r "$here/pyproject.toml" "$here/setup.py" "$here/fuselab" "$stage/"
rm -rf "$stage/fuselab/__pycache__"
cp "$lib" "$stage/fuselab/libfuselab.so"
mkdir -p "$out"
"$python" -m pip wheel -q --disable-pip-version-check --no-build-isolation --no-deps -w "$out" "$stage" >&2
ls "$out"/fuselab-*.whl
