#!/usr/bin/env bash
# s44: the first call, whatever card comes: p1.sh (the suite's and five hidden shapes beside the
# peers, then t1.sh: the CUDA tests and the CLI sweep); h1.sh (the row tables) warm after it.
nvidia-smi --query-gpu=name --format=csv,noheader
exec bash results/runs/2026-12-07-gpu-s44/p1.sh
