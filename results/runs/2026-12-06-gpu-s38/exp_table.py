# The experiments of g1/ and g2/ (schedules/*/x*.cpp, uncommitted: staged forms with other buckets
# or staging steps): each cell's best shipped staged form (or block_row_4k), and each candidate's
# TB/s as a ratio to it, the better of the two rounds each.
#   python3 exp_table.py g2 staged_row_2k,staged_row_8k,staged_row_wide,block_row_4k CANDIDATES
import json,sys,glob
from collections import defaultdict
D=sys.argv[1]; base=sys.argv[2].split(','); cands=sys.argv[3].split(',')
t=defaultdict(list)
for f in glob.glob(D+'/r*_*.json'):
    for r in json.load(open(f))['records']:
        if not r.get('ok'): continue
        n=int(r['size'].split('x')[0])
        t[(r['workload'],r['dtype'],n,r['name'])].append(r['min_bytes']/r['median_us']/1e6)
cells=defaultdict(dict)
for (p,d,n,s),v in t.items(): cells[(p,d,n)][s]=max(v)
print('op dtype N | best base | '+' '.join(cands)+' (ratio to best base)')
for k in sorted(cells):
    c=cells[k]
    bb=max((c[s],s) for s in base if s in c)
    print(*k,f'| {bb[1]} {bb[0]:.2f} |',' '.join(f'{c[s]/bb[0]:.3f}' if s in c else '  -  ' for s in cands))
