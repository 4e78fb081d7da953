#!/usr/bin/env bash
# s51's GPU calls. On an H200: PICK=p1 p1.sh (the suite's row lengths beside the peers, issue 30's
# table; P1_HIDDEN=1 adds five hidden row lengths), PICK=c1 c1.sh (issue 29: the choice held out
# on the H200, random row shapes, every strategy timed), PICK=t2 t2.sh. On any other card t2.sh
# (the CUDA tests of the row pipelines, the runtime and the choice, the CLI sweep of the row
# pipelines, tests/test_python.py: s50's last runtime change never ran on a GPU).
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
S=results/runs/2026-12-08-gpu-s51
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
    exec bash $S/${PICK:-p1}.sh
fi
echo "not an H200: t2.sh"
exec bash $S/t2.sh
