#!/usr/bin/env bash
# Measured traffic and launches: Nsight Compute over one call of every CUDA variant at each of its
# default sizes (`fuselab bench --once`), one ncu process per (variant, size): DRAM bytes read and
# written and the GPU time of each kernel, beside the ledger (the --json record of the same run).
# Runs on the GPU machine; the clocks are left as they are (--clock-control none); ncu flushes the
# caches before each kernel (its default), so small sizes read from DRAM what a loop finds in L2.
#
# Usage: gpu/ncu_run.sh OUTDIR [PIPELINE...], then python3 results/ncu_table.py OUTDIR.
# Per (variant, size), OUTDIR gets P__S__SIZE.csv (ncu's rows), .json (fuselab's record), .log
# (everything else) and .rc (exit status). Resumable: a run whose .rc is 0 is not redone unless
# FORCE=1, so the list can be taken in parts within a time limit.
set -uo pipefail
BIN="${BIN:-.carry}"
NCU="${NCU:-ncu}"
TIMEOUT="${NCU_TIMEOUT:-300}"  # seconds per (variant, size)
out="${1:?usage: gpu/ncu_run.sh OUTDIR [PIPELINE...]}"
shift
mkdir -p "$out"
"$BIN/fuselab" list --target cuda --sizes > "$out/variants.txt" || exit 1
failed=0
while read -r p s _ size; do
    [ $# -eq 0 ] || [[ " $* " == *" $p "* ]] || continue
    base="$out/${p}__${s}__${size}"
    [ -z "${FORCE:-}" ] && [ "$(cat "$base.rc" 2>/dev/null)" = 0 ] && continue
    echo "ncu: $p $s $size" >&2
    # stdin from /dev/null: neither ncu nor fuselab may eat this loop's list.
    timeout "$TIMEOUT" "$NCU" --clock-control none --csv \
        --metrics dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum \
        "$BIN/fuselab" bench --target cuda --pipeline "$p" --schedule "$s" --size "$size" \
        --once --no-check --json "$base.json" < /dev/null > "$base.log" 2>&1
    rc=$?
    echo "$rc" > "$base.rc"
    grep -E '^"' "$base.log" > "$base.csv"  # ncu's CSV rows; the log keeps the rest
    if [ "$rc" != 0 ]; then
        echo "ncu: $p $s $size failed (exit $rc$([ "$rc" = 124 ] && echo ", timed out after ${TIMEOUT} s")); see $base.log" >&2
        failed=$((failed + 1))
    fi
done < "$out/variants.txt"
echo "ncu: done, $failed failed; python3 results/ncu_table.py $out" >&2
[ "$failed" = 0 ]
