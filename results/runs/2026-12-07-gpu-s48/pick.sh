#!/usr/bin/env bash
# s48's calls 1 and 5: on an H200, p1.sh (the suite and five hidden row lengths beside the peers);
# on another card (an H100), c1.sh: issue 29's held-out check beside results/h100.json (which s47
# extended), new seeds (call 1, before this line's SEEDS: 4801, 4802, 4891; call 5: 4803, 4804,
# 4892).
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
    exec bash results/runs/2026-12-07-gpu-s48/p1.sh
fi
nvidia-smi --query-gpu=name --format=csv,noheader
SEEDS="4803 4804 4892" exec bash results/runs/2026-12-07-gpu-s48/c1.sh
