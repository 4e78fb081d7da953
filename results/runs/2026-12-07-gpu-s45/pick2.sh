#!/usr/bin/env bash
# s45's first call (copied from s44's pick2.sh): on an H200, p1.sh (the suite beside the peers, then
# the CUDA tests and the CLI sweep: issue 30's figures on its own card); on another card, n1.sh
# (Nsight Compute on s44 p1's weakest H100 cells).
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
    exec bash results/runs/2026-12-07-gpu-s45/p1.sh
fi
exec bash results/runs/2026-12-07-gpu-s45/n1.sh
