#!/usr/bin/env bash
# b.sh, on the GPU machine (s29 call 2): why a/'s adjacent forms went wrong in 16-bit and why every
# search process then died at N = 1417 (CUDA_ERROR_LAUNCH_FAILED at its first call there).
#   1. compute-sanitizer (memcheck, then racecheck) over one call each (--once) of the forms that
#      were wrong (warp_r4_u0_o0_adj, block_t128_u0_o0_adjs) and right (warp_r4_u1_o1_adj,
#      warp_row), softmax bfloat16 and float32, N = 257, 1001 and 1417, 2^15 elements.
#   2. Each wrong form alone in its own process.
#   3. The search of a/ past N = 1001 over the forms that were right, one process a
#      (pipeline, type, N), so that a failure loses that cell only.
set -u
work=/tmp/b; out="${OUT:-/tmp/b-out}"
mkdir -p "$work" "$out" /tmp/hl
trap 'tar czf "$out/b.tar.gz" -C "$work" .' EXIT
xz -dc .carry_search/libHalide.so.xz > /tmp/hl/libHalide.so || exit 1
export LD_LIBRARY_PATH=/tmp/hl
bin=.carry_search/fuselab_row_search
{ date -u +%FT%TZ; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv
  git log -1 --format=%H 2>/dev/null; } > "$work/machine.txt" 2>&1
t0=$SECONDS
for tool in memcheck racecheck; do
    for dt in bfloat16 float32; do
        timeout 100 compute-sanitizer --tool $tool --print-limit 20 "$bin" --once --no-grid \
            --ops softmax --dtypes $dt --ns 257,1001,1417 --elements 32768 --strategies warp_row \
            --forms warp_r4_u0_o0_adj,warp_r4_u1_o1_adj,block_t128_u0_o0_adjs \
            > "$work/san_${tool}_$dt.txt" 2>&1
        echo "$tool $dt: exit $? at $((SECONDS - t0)) s: $(grep -c 'Invalid\|RACE\|Race\|hazard' "$work/san_${tool}_$dt.txt") reports" | tee -a "$work/log.txt"
    done
done
# 2. Each wrong form of a/ alone in its own process (softmax and layernorm bfloat16, N = 257 and
#    1001): is it wrong by itself, or after the candidates that ran before it in a/?
for f in warp_r4_u0_o0_adj warp_r4_u2_o2_adj block_t128_u0_o0_adjs warp_r4_u1_o1_adj; do
    timeout 60 "$bin" --no-grid --ops softmax,layernorm --dtypes bfloat16 --ns 257,1001 \
        --elements 33554432 --strategies warp_row --forms $f --only $f > "$work/alone_$f.csv" 2>&1
    echo "alone $f: exit $? at $((SECONDS - t0)) s" | tee -a "$work/log.txt"
    cat "$work/alone_$f.csv" >> "$work/log.txt"
done
forms=warp_r2_u1_o1_adj,warp_r4_u1_o1_adj,warp_r8_u1_o1_adj,warp_r4_u1_o2_adj
forms+=,block_t128_u0_o0_adj,block_t128_u0_o0_staged_adj
strategies=warp_row,staged_row_2k,block_row_2k,block_row_4k,adjacent_row,adjacent_staged_2k
t1=$SECONDS
for n in 1417 2100 4099 5989; do
    for op in softmax rmsnorm_residual layernorm; do
        for dt in float16 bfloat16 float32; do
            timeout 300 "$bin" --lock /tmp/b.lock --no-grid --ops $op --dtypes $dt --ns $n \
                --elements 33554432 --strategies "$strategies" --forms "$forms" \
                > "$work/s_${op}_${dt}_$n.csv" 2> "$work/s_${op}_${dt}_$n.err" &
        done
    done
    wait
    echo "search N=$n: at $((SECONDS - t1)) s" | tee -a "$work/log.txt"
    [ $((SECONDS - t0)) -gt 420 ] && break
done
{ echo "op,dtype,n,candidate,us,tbps,max_err,compile_s"; cat "$work"/s_*.csv | grep -v "^op,"; } > "$work/search.csv"
cp "$work/search.csv" "$out/"
grep -l "Error\|Abort" "$work"/s_*.csv "$work"/s_*.err 2>/dev/null | head | tee -a "$work/log.txt"
