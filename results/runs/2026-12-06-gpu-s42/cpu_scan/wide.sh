#!/usr/bin/env bash
# s42: how often the CPU row strategies hit a slow shape: N = 200 to 1180 in steps of 20 (and
# N + 1 each), N x (2^22 / N), float32, each (pipeline, strategy, N) a fresh process of
# `fuselab bench`. One line: pipeline strategy N M us.
#   bash wide.sh > wide.txt   (from anywhere; build/ as committed)
cd "$(dirname "$0")/../../../.." || exit 1
for n in $(seq 200 20 1180); do
    for nn in $n $((n + 1)); do
        m=$((4194304 / nn))
        for ps in softmax:block_row softmax:recompute_row layernorm:block_row rmsnorm_residual:block_row; do
            p=${ps%%:*} s=${ps##*:}
            echo "$p $s $nn $m $(build/cli/fuselab bench --target cpu --pipeline $p --schedule $s \
                --dtype float32 --size ${nn}x$m --no-check 2>/dev/null | awk '$1 == "'$p'" && NF > 8 {print $7}')"
        done
    done
done
