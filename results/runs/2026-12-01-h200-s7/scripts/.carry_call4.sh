#!/usr/bin/env bash
# (not committed) device call 4 of session 7
set -u
bash bench/carry.sh --unpack
R=/tmp/r4; mkdir -p $R
t0=$SECONDS
timeout 115 python3 bench/torch_bench.py --part graph --time-budget 105 --json $R/torch_graph.json > $R/torch_graph.txt 2> $R/torch_graph.err
echo "graph part: exit $? $((SECONDS-t0)) s"; tail -2 $R/torch_graph.err
t0=$SECONDS
timeout 130 python3 bench/sanitize_cuda.py --bin .carry/fuselab --out $R/sanitizers_k8auto --jobs 4 --pipelines stencil_chain_k8 --schedules auto > $R/sanitize_k8auto.log 2>&1
echo "sanitize k8 auto: exit $? $((SECONDS-t0)) s"; tail -4 $R/sanitize_k8auto.log
for s in 256x256 512x512; do timeout 60 compute-sanitizer --tool initcheck --print-limit 3 .carry/fuselab bench --target cuda --once --check --pipeline stencil_chain_k8 --schedule auto --size $s --json /dev/null > $R/initcheck_k8auto_$s.log 2>&1; echo "$s: exit $?"; grep -E "SUMMARY|check|refuses" $R/initcheck_k8auto_$s.log | head -4; done
tar cJf $OUT/r4.tar.xz -C $R .
