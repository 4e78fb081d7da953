#!/usr/bin/env bash
# (not committed) device call 2 of session 8: the CLI's CUDA sweep, the Python package on numpy and
# torch, the sanitizers of the changed variants, the CUDA-graph part of torch_bench
set -u
bash bench/carry.sh --unpack
B=.carry/fuselab
R=/tmp/r2; mkdir -p $R
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv; cat .carry/commit .carry/status; } > $R/machine_call2.txt 2>&1
t0=$SECONDS
timeout 230 python3 tests/test_cli_sweep.py $B --target cuda --jobs 12 > $R/sweep_cuda.log 2>&1
echo "CLI sweep (cuda): exit $? $((SECONDS-t0)) s"; tail -3 $R/sweep_cuda.log
t0=$SECONDS
timeout 60 python3 tests/test_python.py $B > $R/python.log 2>&1
echo "test_python: exit $? $((SECONDS-t0)) s"; tail -3 $R/python.log
t0=$SECONDS
timeout 90 python3 tests/test_torch.py > $R/torch_tests.log 2>&1
echo "test_torch: exit $? $((SECONDS-t0)) s"; tail -4 $R/torch_tests.log
t0=$SECONDS
timeout 100 python3 bench/sanitize_cuda.py --bin $B --out $R/sanitizers_changed --jobs 12 --pipelines stencil_chain_k8,conv_relu_pool --schedules auto,shared_weights_k16_b32x16 > $R/sanitize_changed.log 2>&1
echo "sanitize: exit $? $((SECONDS-t0)) s"; tail -6 $R/sanitize_changed.log
tar cJf $OUT/r2a.tar.xz -C $R .
t0=$SECONDS
timeout 100 python3 bench/torch_bench.py --part graph --time-budget 90 --json $R/torch_graph.json > $R/torch_graph.txt 2> $R/torch_graph.err
echo "graph part: exit $? $((SECONDS-t0)) s"; tail -2 $R/torch_graph.err
tar cJf $OUT/r2.tar.xz -C $R .
