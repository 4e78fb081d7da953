#!/usr/bin/env bash
# s50's GPU calls. PICK=p1 (calls 1 to 4): on an H200, p1.sh (the suite and five hidden row
# lengths beside the peers, issue 30's table); on any other card nothing (the H100's rows beside
# the peers were timed in s43, results/runs/2026-12-06-gpu-s43/p1). PICK=t1 (after the runtime's
# choice changed: the CPU's short_split): t1.sh on whatever card came, the CUDA tests of the row
# pipelines, the runtime and the choice, and the CLI sweep of the row pipelines. From call 16
# on, a card other than an H200 runs t2.sh (t1.sh with the final build, and test_python.py).
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
if [ "${PICK:-p1}" = t1 ]; then
    exec bash results/runs/2026-12-07-gpu-s50/t1.sh
fi
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
    exec bash results/runs/2026-12-07-gpu-s50/p1.sh
fi
echo "not an H200: t2.sh (the final build's CUDA tests of the rows, the CLI sweep, test_python.py)"
exec bash results/runs/2026-12-07-gpu-s50/t2.sh
