#!/usr/bin/env bash
# c.sh, on the GPU machine (s28): softmax's and layernorm's rows that are not whole aligned vectors.
# tools/row_search.cpp JIT-compiles the shipped strategies and forms whose outputs (out;
# here with one output) put the threads over adjacent elements on every row (rows_forms.h:
# Form::adjacent_out, the names' _adj), checks sampled rows against float64 and times them at
# 2^25 elements a call, beside a Halide device copy. Needs .carry_search (bash gpu/row_search.sh
# --pack). Packs everything into $OUT/adj.tar.gz.
set -u
work=/tmp/c; out="${OUT:-/tmp/c-out}"
mkdir -p "$work" "$out" /tmp/hl
trap 'tar czf "$out/c.tar.gz" -C "$work" .' EXIT
xz -dc .carry_search/libHalide.so.xz > /tmp/hl/libHalide.so || exit 1
export LD_LIBRARY_PATH=/tmp/hl
bin=.carry_search/fuselab_row_search
{ date -u +%FT%TZ; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv
  git log -1 --format=%H 2>/dev/null; } > "$work/machine.txt" 2>&1
forms=block_t128_u0_o0_staged_b2048_adj,block_t128_u0_o0_staged_adj,block_t256_u0_o0_staged_adj
forms+=,block_t128_u0_o0_adj,block_t256_u0_o0_adj,block_t512_u0_o0_adj,block_t256_u4_o4_adj
strategies=staged_row_2k,staged_row_8k,block_row,block_row_2k,block_row_4k,warp_row
P=6
t0=$SECONDS
for k in $(seq 0 $((P - 1))); do
    timeout "${ADJ_TIMEOUT:-450}" "$bin" --shard "$k/$P" --lock /tmp/adj.lock --no-grid \
        --ops softmax,layernorm --dtypes float16,bfloat16,float32 \
        --ns 1001,1417,2100,4099,5989,12345,4096,8192 --elements 33554432 \
        --strategies "$strategies" --forms "$forms" > "$work/s_$k.csv" 2> "$work/s_$k.err" &
done
wait
echo "search: $((SECONDS - t0)) s" | tee -a "$work/machine.txt"
{ head -1 "$work/s_0.csv"; for k in $(seq 0 $((P - 1))); do tail -n +2 "$work/s_$k.csv"; done; } > "$work/search.csv"
tail -3 "$work"/s_*.err
