#!/usr/bin/env bash
# s46: on an H200, p1.sh (the suite beside the peers, then the CUDA tests and the CLI sweep:
# issue 30's figures on its own card); on another card, nothing (n1.sh ran on the first H100).
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
    exec bash results/runs/2026-12-07-gpu-s46/p1.sh
fi
nvidia-smi --query-gpu=name --format=csv,noheader; echo "not an H200: nothing run (n1.sh ran at 08:36)"
