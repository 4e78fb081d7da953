#!/usr/bin/env bash
# s43: the first call, whatever card comes. From 22:49 (1323 s of device time left, room for one
# full call and perhaps a second): p1.sh first (the suite's and five hidden shapes beside the
# peers, then the CUDA tests and the CLI sweep), h1.sh (the other row shapes) warm after it.
nvidia-smi --query-gpu=name --format=csv,noheader
exec bash results/runs/2026-12-06-gpu-s43/p1.sh
