#!/usr/bin/env bash
# The call's script by the card that came: an H200 runs h1.sh (its table), any other c1.sh.
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
    exec bash results/runs/2026-12-06-gpu-s42/h1.sh
fi
exec bash results/runs/2026-12-06-gpu-s42/c1.sh
