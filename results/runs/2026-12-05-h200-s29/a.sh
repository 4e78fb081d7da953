#!/usr/bin/env bash
# a.sh, on the GPU machine (s29): short rows that are not whole aligned vectors.
# tools/row_search.cpp JIT-compiles the shipped strategies and the forms whose lanes or threads
# take adjacent elements (rows_forms.h: Form::adjacent_out; warp_r*_adj: a warp a row, the lanes
# over adjacent elements in every pass; block_t*_adjs: a block a row, the outputs and the
# statistics' loads over adjacent elements; block_t*_adj: the outputs only, as s28's), checks
# sampled rows against float64 and times them at 2^25 elements a call beside a Halide device copy.
# Needs .carry_search (bash gpu/row_search.sh --pack). Packs everything into $OUT/a.tar.gz.
set -u
work=/tmp/a; out="${OUT:-/tmp/a-out}"
mkdir -p "$work" "$out" /tmp/hl
trap 'tar czf "$out/a.tar.gz" -C "$work" .' EXIT
xz -dc .carry_search/libHalide.so.xz > /tmp/hl/libHalide.so || exit 1
export LD_LIBRARY_PATH=/tmp/hl
bin=.carry_search/fuselab_row_search
{ date -u +%FT%TZ; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv
  git log -1 --format=%H 2>/dev/null; } > "$work/machine.txt" 2>&1
forms=warp_r2_u0_o0_adj,warp_r4_u0_o0_adj,warp_r8_u0_o0_adj,warp_r4_u1_o1_adj,warp_r4_u2_o2_adj,warp_r4_u4_o2_adj
forms+=,block_t64_u0_o0_adjs,block_t128_u0_o0_adjs,block_t256_u0_o0_adjs
forms+=,block_t128_u0_o0_adj,block_t128_u0_o0_staged_adj,block_t128_u0_o0_staged_b2048_adj
strategies=warp_row,warp_regs_1k,staged_row_2k,block_row,block_row_2k,block_row_4k,adjacent_row,adjacent_staged_2k
P=9
t0=$SECONDS
for k in $(seq 0 $((P - 1))); do
    timeout "${A_TIMEOUT:-400}" "$bin" --shard "$k/$P" --lock /tmp/a.lock --no-grid \
        --ops softmax,rmsnorm_residual,layernorm --dtypes float16,bfloat16,float32 \
        --ns 257,600,1001,1417,1999,2100,3001,4099,5989,1024 --elements 33554432 \
        --strategies "$strategies" --forms "$forms" > "$work/s_$k.csv" 2> "$work/s_$k.err" &
done
wait
echo "search: $((SECONDS - t0)) s" | tee -a "$work/machine.txt"
{ head -1 "$work/s_0.csv"; for k in $(seq 0 $((P - 1))); do tail -n +2 "$work/s_$k.csv"; done; } > "$work/search.csv"
cp "$work/search.csv" "$out/"
tail -3 "$work"/s_*.err
