# Final H200 run, part C: the Nsight Compute runs part B's time limit left out (resumable).
export BIN=.carry
NCU_TIMEOUT=60 bash bench/ncu_run.sh .carry/ncu conv_relu_pool 2>&1 | tail -5
mkdir -p $OUT/c && cp .carry/ncu/conv_relu_pool__unfused__* $OUT/c/ 2>/dev/null; nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv > $OUT/c/machine.txt
cd $OUT && tar czf c.tgz c && rm -rf c
