#!/usr/bin/env bash
# Float32 softmax at 2^22 elements (from memory: the 480 MB L3 / DRAM) and at 2^19 (2 MB in, 2 MB
# out: within the two cores' L2), on 1 and 2 threads: ONNX Runtime (ort_softmax.py: its median over
# batches, a run's own overhead included) and fuselab's block_row (fuselab bench --no-check, the
# host measure's median). From the repository root, with build/ (commit 22df328).
run=results/runs/2026-12-04-cpu-s27
for s in 256x16384 4096x1024 256x2048 4096x128; do
  N=${s%x*}; M=${s#*x}
  for t in 1 2; do
    .venv/bin/python $run/ort_softmax.py $N $M $t | sed "s/^/threads $t /"
    HL_NUM_THREADS=$t build/cli/fuselab bench --target cpu --pipeline softmax --schedule block_row \
        --dtype float32 --size $s --budget 1 --no-check --json /tmp/threads.json > /dev/null 2>&1
    .venv/bin/python -c "import json; r = json.load(open('/tmp/threads.json'))['records'][0]; print('threads $t', '$s', 'fuselab block_row median us', round(r['median_us'], 1))"
  done
done
