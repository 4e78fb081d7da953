#!/usr/bin/env bash
# s29, on this (CPU) machine: the PTX of the 12 new variants as built against the JIT candidates
# that a/ and b/ checked on the H200 (warp_r4_u1_o1_adj: adjacent_warp; block_t128_u0_o0_adj:
# layernorm's adjacent_row). Needs build/ and build/tools/fuselab_row_search.
set -euo pipefail
S=results/runs/2026-12-05-h200-s29
emit=$(mktemp -d)
cases=""
for op in softmax rmsnorm_residual layernorm; do
    for d in float32 bfloat16 float16; do cases+="$op:$d:257:warp_r4_u1_o1_adj,"; done
done
for d in float32 bfloat16 float16; do cases+="layernorm:$d:5989:block_t128_u0_o0_adj,"; done
build/tools/fuselab_row_search --dry --emit "$emit" --ops softmax,rmsnorm_residual,layernorm \
    --dtypes float32,bfloat16,float16 --ns 257,5989 --no-grid --strategies warp_row \
    --cases "${cases%,}" --forms warp_r4_u1_o1_adj,block_t128_u0_o0_adj > /dev/null
for op in softmax rmsnorm_residual layernorm; do
    for d in float32 bfloat16 float16; do
        suf=""; [ $d != float32 ] && suf="__$d"
        echo "$op/adjacent_warp/$d vs warp_r4_u1_o1_adj: $(python3 $S/aot_vs_jit.py \
            "$emit/${op}_${d}_warp_r4_u1_o1_adj.s" "build/${op}__adjacent_warp__cuda$suf.device_code")"
    done
done
for d in float32 bfloat16 float16; do
    suf=""; [ $d != float32 ] && suf="__$d"
    echo "layernorm/adjacent_row/$d vs block_t128_u0_o0_adj: $(python3 $S/aot_vs_jit.py \
        "$emit/layernorm_${d}_block_t128_u0_o0_adj.s" "build/layernorm__adjacent_row__cuda$suf.device_code")"
done
rm -rf "$emit"
