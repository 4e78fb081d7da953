#!/usr/bin/env bash
# s42: softmax float32 on the CPU, the shipped block_row and recompute_row beside four
# experimental copies with the next row of x prefetched (schedules/softmax/xpf_*.cpp, not
# shipped: xpf_row and xpf_row2 prefetch the whole row 1 or 2 rows ahead at the row loop,
# xpf_ex the next row's columns inside the exponential's loop, xpf_rc recompute_row with the
# next row), and the CPU peers, the suite's sizes, ROUNDS rounds. One line: round name size us.
#   bash ab.sh ROUNDS > raw.txt   (from the repository root; the build with the copies)
cd "$(dirname "$0")/../../../.." || exit 1
for k in $(seq 1 "$1"); do
    build/cli/fuselab bench --target cpu --pipeline softmax --dtype float32 --schedule block_row \
        --schedule recompute_row --schedule xpf_row --schedule xpf_row2 --schedule xpf_ex \
        --schedule xpf_rc --peers ".venv/bin/python peers/cpu_peers.py" 2>/dev/null |
        awk -v k="$k" '$1 == "softmax" && NF > 8 {print k, $3, $2, $7}'
done
