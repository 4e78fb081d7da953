#!/bin/bash
# Run from the repository root after ./fuselab build (G: the generator, D: a scratch folder).
# ptxas reports of the new CUDA variants, with the project's generator (build/fuselab_gen).
G=${G:-build/fuselab_gen}
T=x86-64-linux-avx-avx2-f16c-fma-sse41-cuda-cuda_capability_86
D=${D:-/tmp/ptx_rep}; rm -rf $D; mkdir -p $D
run() { # name generator schedule params...
  n=$1; g=$2; s=$3; shift 3
  $G -g $g -o $D -f $n -e device_code,stmt,c_header target=$T schedule=$s "$@" 2>/dev/null >/dev/null || { echo "$n: generator failed"; return; }
  echo "$n $(python3 tools/ptx_resources.py $D/$n.device_code --stmt $D/$n.stmt)"
  grep -o "ld.global.nc.v4[.a-z0-9]*\|ld.global.nc.v2[.a-z0-9]*\|ld.global.nc.b64\|st.global.v4[.a-z0-9]*" $D/$n.device_code | sort | uniq -c | tr '\n' ' '; echo
}
for k in 2 4 8; do for s in line_buffer line_buffer_r16 line_buffer_v8; do [ $k = 8 ] && [ $s = line_buffer_v8 ] && continue; run sc${k}_$s stencil_chain $s stages=$k; done; done
for s in line_buffer line_buffer_r16 line_buffer_v8; do run blur_$s blur3x3 $s; done
for s in separate separate_shared horizontal; do run tc_$s two_convs $s; run tci_$s two_convs_indep $s; done
for s in shared_weights_b32x8 shared_weights_k8 tiled shared_weights; do run crp_$s conv_relu_pool $s; done
for s in const_tiled const_partitioned; do run crpc_$s conv_relu_pool_const $s channels=3 filters=16 weights.size=432 bias.size=16; done
