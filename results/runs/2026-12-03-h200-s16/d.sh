#!/usr/bin/env bash
# s16's fourth call: warp_regs_1k, which bench.sh left out, timed beside warp_row, block_row_2k and
# staged_row_2k at N = 256, 512, 1000 and 1024 (2^26 elements a call), then the peers at N = 256
# and 1024 again in this call (eager, compile, Liger), then the CLI's CUDA sweep of the pipelines
# other than the rows (tests2.sh's was cut by its limit). Each file straight into $OUT (at most 8).
set -uo pipefail
bash gpu/carry.sh --unpack || exit 1
export FUSELAB_REQUIRE_CUDA=1 PYTHONUNBUFFERED=1
sizes=""
for n in 256 512 1000 1024; do sizes+=" --size ${n}x$(( (1 << 26) / n ))"; done
sel="--schedule warp_regs_1k --schedule warp_row --schedule block_row_2k --schedule staged_row_2k"
for p in softmax rmsnorm_residual layernorm; do
    # shellcheck disable=SC2086
    timeout 40 .carry/fuselab bench --target cuda --pipeline "$p" $sel $sizes \
        --budget 0.05 --device-budget 0.03 --no-check --json "$OUT/regs_$p.json" \
        2>> "$OUT/log.txt" | tail -1 >> "$OUT/log.txt"
    echo "regs $p: exit ${PIPESTATUS[0]} at $SECONDS s" >> "$OUT/log.txt"
done
timeout 110 python3 peers/peers.py --workload rows --skip-autotune --time-budget 100 \
    --row-n 256 --row-n 1024 --dtype float32 --dtype bfloat16 --dtype float16 \
    --json "$OUT/peers_regs.json" 2>> "$OUT/log.txt" | tail -2 >> "$OUT/log.txt"
echo "peers: exit ${PIPESTATUS[0]} at $SECONDS s" >> "$OUT/log.txt"
others=""
for p in add_relu conv_relu_pool pointwise_chain branches branches_indep blur3x3 stencil_chain_k2 \
    stencil_chain_k4 stencil_chain_k8 two_convs two_convs_indep; do
    others+=" --pipeline $p"
done
# shellcheck disable=SC2086
timeout 190 python3 tests/test_cli_sweep.py .carry/fuselab --target cuda $others --shapes 1 \
    --jobs 16 > "$OUT/sweep_others3.log" 2>&1
echo "CLI sweep (other pipelines, cuda): exit $? at $SECONDS s" >> "$OUT/log.txt"
tail -3 "$OUT/sweep_others3.log"
cat "$OUT/log.txt" | grep -E "^(regs|peers|CLI|[0-9]+ rows)"
