#!/usr/bin/env bash
# (not committed) device call 2 of session 7
set -u
bash bench/carry.sh --unpack
R=/tmp/r; mkdir -p $R
t0=$SECONDS
OUT=$R BIN=.carry SKIP_CUPTI=1 BENCH_ARGS="--budget 0.2 --device-budget 0.15" timeout 370 bash bench/gpu_run.sh fuselab > $R/console_fuselab.log 2>&1
echo "fuselab part: exit $? $((SECONDS-t0)) s"; cat $R/console_fuselab.log
t0=$SECONDS
timeout 100 python3 bench/sanitize_cuda.py --bin .carry/fuselab --out $R/sanitizers --jobs 12 --pipelines stencil_chain_k2,stencil_chain_k4,stencil_chain_k8 > $R/sanitize_stencil.log 2>&1
echo "sanitize stencil: exit $? $((SECONDS-t0)) s"; tail -30 $R/sanitize_stencil.log
t0=$SECONDS
timeout 70 python3 bench/sanitize_cuda.py --bin .carry/fuselab --out $R/sanitizers_conv --jobs 4 --pipelines conv_relu_pool --schedules shared_weights_k16_b32x8 > $R/sanitize_conv.log 2>&1
echo "sanitize conv: exit $? $((SECONDS-t0)) s"; tail -8 $R/sanitize_conv.log
.carry/fuselab list --json --target cuda > $R/list.json 2>&1
tar cJf $OUT/r.tar.xz -C $R .
ls -la $OUT
