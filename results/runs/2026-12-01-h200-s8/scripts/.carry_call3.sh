#!/usr/bin/env bash
# (not committed) device call 3 of session 8: fuselab bench over every CUDA variant
set -u
bash bench/carry.sh --unpack
R=/tmp/r3; mkdir -p $R
t0=$SECONDS
OUT=$R BIN=.carry SKIP_CUPTI=1 BENCH_ARGS="--budget 0.2 --device-budget 0.15" timeout 500 bash bench/gpu_run.sh fuselab > $R/bench_console.log 2>&1
echo "bench part: exit $? $((SECONDS-t0)) s"; tail -5 $R/bench_console.log
.carry/fuselab list --json --target cuda > $R/list.json 2>&1
{ date -u; nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv; grep -m1 "model name" /proc/cpuinfo; nproc; python3 -c 'import torch, sys; print("python", sys.version.split()[0], "torch", torch.__version__)'; } > $R/machine.txt 2>&1
tar cJf $OUT/r3.tar.xz -C $R .
