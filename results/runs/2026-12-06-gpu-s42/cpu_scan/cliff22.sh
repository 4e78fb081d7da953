#!/usr/bin/env bash
# s42: softmax/block_row on the CPU at 2^22 elements (N x 4194304/N), each (build, type, N) a
# fresh process of `fuselab bench`: OLD (ex from halide_malloc, the build before dce457c) and NEW
# (ex on the stack), then NEW with one thread, and NEW pinned to one CPU. One line: label dtype N us.
#   bash cliff22.sh OLD NEW > cliff22.txt   (from anywhere)
cd "$(dirname "$0")/../../../.." || exit 1
old=$1 new=$2
one() {  # label, binary, dtype, N
    local m=$((4194304 / $4))
    echo "$1 $3 $4 $($2 bench --target cpu --pipeline softmax --schedule block_row --dtype $3 \
        --size $4x$m --no-check 2>/dev/null | awk '$1 == "softmax" && NF > 8 {print $7}')"
}
for d in float32 float16; do
    for n in 256 257 264 272 274 280 288 300; do
        one old "$old" $d $n
        one new "$new" $d $n
    done
done
for d in float32 float16; do
    for n in 272 274 280; do
        HL_NUM_THREADS=1 one new_1thread "$new" $d $n
        taskset -c 0 bash -c "$(declare -f one); one new_cpu0 $new $d $n"
    done
done
