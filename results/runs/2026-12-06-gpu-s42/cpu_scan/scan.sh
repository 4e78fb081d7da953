#!/usr/bin/env bash
# s42: every CPU row strategy, each (pipeline, strategy, type, N) in a fresh process of
# `fuselab bench` (the first variant timed in a process met softmax/block_row's slow case), N x M
# with M = 2^21 / N, float32 and bfloat16. One line: build pipeline strategy dtype N M us.
#   [PIPES="softmax ..."] bash scan.sh BIN TAG [N ...] > out.txt
cd "$(dirname "$0")/../../../.." || exit 1
bin=$1 tag=$2; shift 2
ns=${*:-256 257 264 300 1000 1025 4100}
for p in ${PIPES:-softmax rmsnorm_residual layernorm}; do
    list="block_row lane_rows two_pass unfused"
    [ $p = softmax ] && list+=" recompute_row"
    for s in $list; do
        for d in float32 bfloat16; do
            for n in $ns; do
                m=$((2097152 / n))
                us=$("$bin" bench --target cpu --pipeline $p --schedule $s --dtype $d --size ${n}x$m \
                    --no-check 2>/dev/null | awk '$1 == "'$p'" && NF > 8 {print $7}')
                echo "$tag $p $s $d $n $m $us"
            done
        done
    done
done
