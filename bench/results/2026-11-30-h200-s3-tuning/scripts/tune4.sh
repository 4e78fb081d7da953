#!/bin/bash
# conv tuning call 4 (session 3): channel blocks innermost in the grid
B=.carry; O=/tmp/o4; mkdir -p $O
{
date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv
S="--schedule tiled --schedule x_kin"
$B/fuselab_x bench --target cuda --pipeline conv_relu_pool $S --budget 0.4 --json $O/conv_kin.json 2>&1
$B/fuselab_x bench --target cuda --pipeline conv_relu_pool $S --no-check --budget 0.4 --json $O/conv_kin2.json 2>&1
} > $O/tune4.log
for s in tiled x_kin; do for z in 3840x2160x3x16 1920x1080x16x16; do
timeout 60 ncu --clock-control none --csv --metrics dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,lts__t_sector_hit_rate.pct $B/fuselab_x bench --target cuda --pipeline conv_relu_pool --schedule $s --size $z --once --no-check < /dev/null > $O/ncu_${s}_$z.txt 2>&1
done; done
tar czf $OUT/tune4.tgz -C $O .
grep -E "cuda  " $O/tune4.log | cut -c1-130; grep -h '^"' $O/ncu_*.txt | awk -F'","' '{print $5, $(NF-2), $NF}' | head -20
