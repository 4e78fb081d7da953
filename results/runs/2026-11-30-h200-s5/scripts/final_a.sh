# Final H200 run, part A (session 5): timed bench, CUPTI bench, register sweep, launch sweep
# (the tests run in part B: this part alone is close to a device call's 600 s limit).
export BIN=.carry
S=$(date +%s)
mkdir -p /tmp/fr
SKIP_TESTS=1 OUT=/tmp/fr bash bench/gpu_run.sh fuselab > /tmp/fr/gpu_run_fuselab.log 2>&1
echo "part A done $(( $(date +%s) - S )) s" | tee -a /tmp/fr/gpu_run_fuselab.log
tar czf $OUT/a.tgz -C /tmp/fr .
grep -E "^(add_relu|pointwise|branches |blur|conv)" /tmp/fr/bench_cuda.txt | grep -E "fused|horizontal|inline_rows|tiled|shared_weights|seed|hand" | cut -c1-150
