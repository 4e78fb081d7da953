#!/bin/bash
# conv tuning call 5 (session 3): channel blocks between x and y in the grid
B=.carry; O=/tmp/o5; mkdir -p $O
{
date -u
for z in 3840x2160x3x16 1920x1080x16x16 256x256x64x64; do
$B/fuselab_x bench --target cuda --pipeline conv_relu_pool --schedule tiled --schedule x_kmid --size $z --budget 0.4 2>&1 | grep -E "cuda  |error"
done
} > $O/tune5.log
timeout 40 ncu --clock-control none --csv --metrics dram__bytes_read.sum,gpu__time_duration.sum,lts__t_sector_hit_rate.pct $B/fuselab_x bench --target cuda --pipeline conv_relu_pool --schedule x_kmid --size 3840x2160x3x16 --once --no-check < /dev/null > $O/ncu_x_kmid.txt 2>&1
tar czf $OUT/tune5.tgz -C $O .
cat $O/tune5.log | cut -c1-140; grep -h '^"' $O/ncu_x_kmid.txt | awk -F'","' '{print $(NF-2), $NF}'
