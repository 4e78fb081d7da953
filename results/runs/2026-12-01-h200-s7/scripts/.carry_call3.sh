#!/usr/bin/env bash
# (not committed) device call 3 of session 7
set -u
bash bench/carry.sh --unpack
R=/tmp/r3; mkdir -p $R
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv; python3 -c 'import torch, triton, sys; print("python", sys.version.split()[0], "torch", torch.__version__, "triton", triton.__version__)'; } > $R/machine_peers.txt 2>&1
t0=$SECONDS
timeout 440 python3 bench/peers.py --time-budget 425 --workload conv_relu_pool --workload stencil_chain_k2 --workload stencil_chain_k4 --workload stencil_chain_k8 --workload blur3x3 --workload two_convs --workload add_relu --workload pointwise_chain --workload branches --workload two_convs_indep --json $R/peers.json > $R/peers.txt 2> $R/peers.err
echo "peers: exit $? $((SECONDS-t0)) s"; tail -5 $R/peers.err
t0=$SECONDS
timeout 95 python3 bench/torch_bench.py --part torch --time-budget 85 --best .carry_bench_cuda.json --json $R/torch_torch.json > $R/torch_torch.txt 2> $R/torch_torch.err
echo "torch part: exit $? $((SECONDS-t0)) s"; tail -3 $R/torch_torch.err
tar cJf $OUT/r3.tar.xz -C $R .
