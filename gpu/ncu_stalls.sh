#!/usr/bin/env bash
# Why a kernel is as fast as it is: Nsight Compute's issue rate, instruction count and warp-stall
# reasons (cycles a warp waits, per issued instruction) for one call of each named variant, as a
# markdown table on stdout. Runs on the GPU machine, clocks left as they are.
# Usage: gpu/ncu_stalls.sh OUTDIR PIPELINE SIZE SCHEDULE... (OUTDIR gets each ncu report, .txt)
set -uo pipefail
BIN="${BIN:-.carry}"
NCU="${NCU:-ncu}"
out="${1:?usage: gpu/ncu_stalls.sh OUTDIR PIPELINE SIZE SCHEDULE...}"
pipeline="${2:?pipeline}"
size="${3:?size}"
shift 3
mkdir -p "$out"
stalls=(long_scoreboard short_scoreboard wait dispatch_stall not_selected no_instruction
        math_pipe_throttle mio_throttle lg_throttle barrier)
metrics=smsp__issue_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum
metrics+=,gpu__time_duration.sum,launch__registers_per_thread
for s in "${stalls[@]}"; do
    metrics+=",smsp__average_warps_issue_stalled_${s}_per_issue_active.ratio"
done
echo "Nsight Compute on $pipeline $size (one call each; stalls: cycles per issued instruction)"
echo
header="| variant | GPU time | regs | warp instr (M) | issue busy % |"
rule="|---|---|---|---|---|"
for s in "${stalls[@]}"; do header+=" $s |"; rule+="---|"; done
echo "$header"
echo "$rule"
for schedule in "$@"; do
    f="$out/${pipeline}__${schedule}__${size}.txt"
    timeout 120 "$NCU" --clock-control none --metrics "$metrics" "$BIN/fuselab" bench --target cuda \
        --pipeline "$pipeline" --schedule "$schedule" --size "$size" --once --no-check \
        < /dev/null > "$f" 2>&1 || { echo "| $schedule | ncu failed (exit $?), see $f |"; continue; }
    # ncu's text: "metric unit value" rows; a kernel's last value of each metric wins.
    awk -v name="$schedule" -v list="${stalls[*]}" '
        $1 ~ /^(smsp__|gpu__|launch__)/ { v = $NF; gsub(",", "", v); m[$1] = v; u[$1] = $(NF - 1) }
        END {
            row = sprintf("| %s | %s %s | %s | %.1f | %s |", name, m["gpu__time_duration.sum"], u["gpu__time_duration.sum"],
                          m["launch__registers_per_thread"], m["smsp__inst_executed.sum"] / 1e6,
                          m["smsp__issue_active.avg.pct_of_peak_sustained_active"])
            n = split(list, s, " ")
            for (i = 1; i <= n; i++)
                row = row " " m["smsp__average_warps_issue_stalled_" s[i] "_per_issue_active.ratio"] " |"
            print row
        }' "$f"
done
