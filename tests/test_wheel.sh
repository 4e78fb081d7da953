#!/usr/bin/env bash
# The wheel (`./fuselab wheel`) into a fresh virtual environment, then a kernel run from it against
# numpy: the package and its library install with pip alone, nothing built there.
#   tests/test_wheel.sh PYTHON WHEEL_DIR_OR_FILE
set -euo pipefail
python="$1"
wheel="$2"
[ -d "$wheel" ] && wheel="$(ls "$wheel"/fuselab-*.whl | head -n 1)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
"$python" -m venv "$tmp/venv"
# numpy as the project pins it (the package's one dependency); the wheel itself from the file.
numpy_pin="$(grep -E '^numpy==' "$(dirname "$0")/../requirements.txt")"
"$tmp/venv/bin/pip" install -q --disable-pip-version-check "$numpy_pin"
"$tmp/venv/bin/pip" install -q --disable-pip-version-check --no-deps "$wheel"
cd "$tmp"  # not the source tree: the installed package, and its own libfuselab.so
"$tmp/venv/bin/python" - <<'PY'
import os, numpy as np, fuselab
assert "site-packages" in fuselab.__file__, fuselab.__file__
rng = np.random.default_rng(int.from_bytes(os.urandom(4), "little"))
a, b = (rng.uniform(-1, 1, 4099).astype(np.float32) for _ in range(2))
for k in (fuselab.kernel("add_relu", "fused", target="cpu"), fuselab.kernel("add_relu", target="cpu")):
    out = np.full(4099, np.nan, np.float32)
    k(a=a, b=b, out=out)
    ref = np.maximum(0, a.astype(np.float64) + b)
    assert np.all(np.abs(out - ref) <= 1e-6 * np.abs(ref) + 1e-7), "wrong result"
print(f"wheel: {os.path.basename(os.path.dirname(fuselab.__file__))} from site-packages ran "
      f"add_relu (fused, and as chosen: {k.chosen['variant'] if hasattr(k, 'chosen') else '?'})")
PY
