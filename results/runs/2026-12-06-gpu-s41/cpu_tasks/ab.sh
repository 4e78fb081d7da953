#!/usr/bin/env bash
# s41: CPU softmax float32, the rows' task count: the shipped block_row (rows_common.h cpu_rows:
# 16384 elements a task) against experimental copies with fewer, larger tasks, and ONNX Runtime,
# alternating rounds of one `fuselab bench` each (this VM's noise moves a figure by 1.3x between
# runs). Prints one line a (round, shape, name): us.
#   bash ab.sh ROUNDS SCHEDULE... > raw.txt
cd "$(dirname "$0")/../../../.." || exit 1
rounds=$1; shift
sel=""
for s in "$@"; do sel+=" --schedule $s"; done
for k in $(seq 1 "$rounds"); do
    # shellcheck disable=SC2086
    build/cli/fuselab bench --target cpu --pipeline softmax $sel --size 4096x1024 --size 256x16384 \
        --size 65536x64 --dtype float32 --peers ".venv/bin/python peers/cpu_peers.py" 2>/dev/null |
        awk -v k="$k" '$1 == "softmax" && $5 == "float32" {print k, $2, $3, $7}'
done
