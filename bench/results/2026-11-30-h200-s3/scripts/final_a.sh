# Final H200 run, part A (session 3): tests, timed bench, CUPTI bench, register sweep, launch sweep.
export BIN=.carry
S=$(date +%s)
mkdir -p /tmp/fr
# Smoke: event timing must work before the long run.
$BIN/fuselab bench --target cuda --pipeline add_relu --size 4096 --json /tmp/fr/smoke.json 2>&1 | tail -8
$BIN/fuselab_tests --gtest_filter='*Timing*:*DeviceTimer*' 2>&1 | tail -4
python3 -c 'import json,sys; r=json.load(open("/tmp/fr/smoke.json"))["records"]; bad=[x for x in r if x.get("timing")!="events" or not x.get("ok")]; print("smoke bad:", bad) if bad else None; sys.exit(1 if bad else 0)' || { tar czf $OUT/a.tgz -C /tmp/fr .; exit 1; }
OUT=/tmp/fr bash bench/gpu_run.sh fuselab > /tmp/fr/gpu_run_fuselab.log 2>&1
echo "part A done $(( $(date +%s) - S )) s" | tee -a /tmp/fr/gpu_run_fuselab.log
tar czf $OUT/a.tgz -C /tmp/fr .
grep -E "PASSED|FAILED|SKIPPED" /tmp/fr/tests.log | tail -5
grep -E "^(add_relu|pointwise|branches |blur|conv)" /tmp/fr/bench_cuda.txt | grep -E "fused|horizontal|inline_rows|tiled|seed" | cut -c1-150
