#!/usr/bin/env bash
# The chunked form's search (issue 30; how s20 chose chunked_row's numbers, results/runs/
# 2026-12-03-h200-s20): candidate strategies of the row pipelines' chunked form with other chunk
# sizes and thread counts, as strategy files of their own, timed beside chunked_row in one call.
#   bash gpu/chunked_search.sh --make    here: writes schedules/<pipeline>/chunked_c<K>k_t<T>.cpp,
#                                        K KB chunks and T threads a block (then ./fuselab build
#                                        and bash gpu/carry.sh; carry .carry)
#   bash gpu/chunked_search.sh           on the GPU machine: fuselab bench over chunked_row and
#                                        every candidate at N = 8192 .. 262144 (2^26 elements a
#                                        call) in the three types, into $OUT/chunked_search.tar.gz
#   bash gpu/chunked_search.sh --clean   here: removes the candidates' files
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
declare -A class=([softmax]=Softmax [layernorm]=Layernorm [rmsnorm_residual]=RmsnormResidual)
kbs=(8 16 32 64)
threads=(128 256 512)
case "${1:-}" in
--make)
    for p in "${!class[@]}"; do
        for k in "${kbs[@]}"; do
            for t in "${threads[@]}"; do
                cat > "$root/schedules/$p/chunked_c${k}k_t${t}.cpp" <<CPP
// chunked_c${k}k_t${t}: a candidate of gpu/chunked_search.sh (not shipped): chunked_row with ${k} KB
// chunks and ${t} threads a block.
// targets: cuda
// params: chunk_bytes=$((k * 1024))
// summary: chunked_row's search candidate, ${k} KB chunks, ${t} threads
#include "row_funcs.h"

namespace fuselab {

FUSELAB_SCHEDULE(${class[$p]}, chunked_c${k}k_t${t}) {
    rows::gpu_chunked_rows(g, ${t}, target);
}

}  // namespace fuselab
CPP
            done
        done
    done
    echo "wrote $(( ${#class[@]} * ${#kbs[@]} * ${#threads[@]} )) candidate files; now ./fuselab build and bash gpu/carry.sh"
    ;;
--clean)
    rm -f "$root"/schedules/*/chunked_c*k_t*.cpp
    ;;
"")
    cd "$root"
    bash gpu/carry.sh --unpack
    D=/tmp/chunked_search
    mkdir -p $D
    sizes=""
    for n in 8192 16384 32768 65536 131072 262144; do sizes+=" --size ${n}x$(( (1 << 26) / n ))"; done
    sel=" --schedule chunked_row"
    for k in "${kbs[@]}"; do for t in "${threads[@]}"; do sel+=" --schedule chunked_c${k}k_t${t}"; done; done
    for p in softmax layernorm rmsnorm_residual; do
        # shellcheck disable=SC2086
        timeout 150 .carry/fuselab bench --target cuda --pipeline "$p" $sel $sizes --budget 0.03 \
            --device-budget 0.015 --no-check --json "$D/grid_$p.json" 2>> $D/grid.log | tail -1 || true
    done
    tar czf "$OUT/chunked_search.tar.gz" -C /tmp chunked_search
    ;;
*)
    echo "usage: $0 [--make | --clean]" >&2
    exit 2
    ;;
esac
