#!/usr/bin/env bash
# base.sh CLI OUT: float32 softmax at 2^22 elements, 2 threads: ONNX Runtime (s27's ort_softmax.py)
# beside the CLI's block_row and two_pass (fuselab bench --no-check, the host measure's median).
set -u
cli=$1; out=$2; : > "$out"
cd /work/main
for s in 256x16384 4096x1024 65536x64; do
  N=${s%x*}; M=${s#*x}
  .venv/bin/python results/runs/2026-12-04-cpu-s27/ort_softmax.py $N $M 2 >> "$out"
  for sc in block_row two_pass; do
    $cli bench --target cpu --pipeline softmax --schedule $sc --dtype float32 --size $s \
        --budget 1 --no-check --json /tmp/base.json > /dev/null 2>&1
    .venv/bin/python -c "import json; r = json.load(open('/tmp/base.json'))['records'][0]; print('$s', '$sc', 'median us', round(r['median_us'], 1))" >> "$out"
  done
done
