#!/usr/bin/env bash
# s47's first call: on an H200, p1.sh (the suite and five hidden row lengths beside the peers, then
# t1.sh: the CUDA tests and the CLI sweep); on another card, t1.sh (the runtime changed: a CPU no
# table names consults every CPU table) and then x1.sh (H100 table rows for s46's misses).
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
    exec bash results/runs/2026-12-07-gpu-s47/p1.sh
fi
nvidia-smi --query-gpu=name --format=csv,noheader
bash results/runs/2026-12-07-gpu-s47/t1.sh
exec bash results/runs/2026-12-07-gpu-s47/x1.sh
