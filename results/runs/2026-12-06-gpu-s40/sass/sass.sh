#!/bin/bash
# sass.sh VARIANT -> VARIANT.sass (from build/VARIANT.device_code)
v=$1; src=${2:-/work/main/build}/$v.device_code
python3 - "$src" "$v.ptx" <<'PY'
import sys
d=open(sys.argv[1],'rb').read()
i=d.find(b'.version')
j=d.find(b'\0',i)
open(sys.argv[2],'wb').write(d[i:j if j>0 else len(d)])
PY
/usr/local/cuda/bin/ptxas -arch=sm_90 -v $v.ptx -o $v.cubin 2> $v.ptxas.txt || { cat $v.ptxas.txt; exit 1; }
/tmp/nvdis/x/nvidia/cu13/bin/nvdisasm -c $v.cubin > $v.sass
python3 /tmp/sass/kstats.py $v.sass
