#!/usr/bin/env bash
# Float32 softmax at 2^22 elements (from memory: 16 MB in, 16 MB out, past the 32 MB L3 with both)
# and at 2^18 (within the cores' L2), on 1 and 2 threads: ONNX Runtime (s27's ort_softmax.py: its
# median over batches) and fuselab's block_row (fuselab bench --no-check, the median).
#   bash results/runs/2026-12-05-cpu-s30/threads.sh [SCHEDULE...]   (repository root, build/)
S=${*:-block_row}
for s in 256x16384 4096x1024 65536x64 256x1024 4096x64; do
  N=${s%x*}; M=${s#*x}
  for t in 1 2; do
    .venv/bin/python results/runs/2026-12-04-cpu-s27/ort_softmax.py $N $M $t | sed "s/^/threads $t /"
    for k in $S; do
      HL_NUM_THREADS=$t build/cli/fuselab bench --target cpu --pipeline softmax --schedule $k \
          --dtype float32 --size $s --budget 1 --no-check --json /tmp/threads.json > /dev/null 2>&1
      .venv/bin/python -c "import json; r = json.load(open('/tmp/threads.json'))['records'][0]; print('threads $t', '$s', 'fuselab $k median us', round(r['median_us'], 1))"
    done
  done
done
