# Final H200 run, part B (session 5): the tests, peers, the conv's warp stalls, then Nsight
# Compute's traffic (resumable; a time limit).
export BIN=.carry
S=$(date +%s)
mkdir -p /tmp/fr
OUT=/tmp/fr bash bench/gpu_run.sh tests > /tmp/fr/gpu_run_tests.log 2>&1
echo "tests done $(( $(date +%s) - S )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) " /tmp/fr/tests.log
OUT=/tmp/fr bash bench/gpu_run.sh peers > /tmp/fr/gpu_run_peers.log 2>&1
echo "peers done $(( $(date +%s) - S )) s"
OUT=/tmp/fr bash bench/gpu_run.sh stalls > /tmp/fr/gpu_run_stalls.log 2>&1
echo "stalls done $(( $(date +%s) - S )) s"; cat /tmp/fr/stalls.md
tar czf $OUT/b1.tgz -C /tmp/fr .
for p in add_relu branches branches_indep stencil_chain_k2 stencil_chain_k4 stencil_chain_k8 pointwise_chain blur3x3 conv_relu_pool; do
  [ $(( $(date +%s) - S )) -gt ${LIMIT:-540} ] && break
  NCU_TIMEOUT=40 timeout $(( ${LIMIT:-540} + 20 - ($(date +%s) - S) )) bash bench/ncu_run.sh /tmp/fr/ncu $p 2>>/tmp/fr/ncu_progress.txt
done
python3 bench/ncu_table.py /tmp/fr/ncu > /tmp/fr/ncu.md 2>&1
echo "ncu done $(( $(date +%s) - S )) s"; tail -3 /tmp/fr/ncu_progress.txt
tar czf $OUT/b.tgz -C /tmp/fr .
grep -E "conv|2684|8192" /tmp/fr/peers.txt | head -30
