# make2.py: tables A (results/cpu.json as committed in e9e85be: s30 suite+grid+m), C (A + s31 m/),
# and each held-out case of s31's clean seeds alone beside each.
import json, glob, os, subprocess
S31='/work/main/results/runs/2026-12-05-cpu-s31'
base=json.loads(subprocess.check_output(['git','-C','/work/main','show','e9e85be:results/cpu.json']))
m=[json.load(open(p)) for p in sorted(glob.glob(S31+'/m/grid_rows_m*.json'))]
def el(size):
    n,mm=size.split('x'); return int(n)*int(mm)
proto={}
for r in base['records']:
    if r.get('kind')=='fuselab' and r.get('workload') in ('softmax','layernorm','rmsnorm_residual') and r.get('median_us'):
        proto[(r['workload'],r['name'],r.get('dtype'))]=r
def case_recs(c):
    out=[]
    for s,us in c['times_us'].items():
        p=proto[(c['pipeline'],s,c['dtype'])]
        f=el(c['size'])/el(p['size'])
        out.append(dict(workload=c['pipeline'],size=c['size'],name=s,dtype=c['dtype'],target='cpu',kind='fuselab',
               median_us=us,kernels=p.get('kernels'),min_bytes=p['min_bytes']*f,
               intermediate_bytes=(p.get('intermediate_bytes') or 0)*f,ok=True))
    return out
A=base['records']; C=A+[r for g in m for r in g['records']]
import shutil; shutil.rmtree('/tmp/xw/h',ignore_errors=True); os.makedirs('/tmp/xw/h')
for name,recs in (('A',A),('C',C)):
    json.dump({'meta':base['meta'],'records':recs},open(f'/tmp/xw/{name}.json','w'))
    for seed in ('3005','3006','3007','3008','3009','3010','3011','3012'):
        for i,c in enumerate(json.load(open(f'{S31}/heldout/choice_check_{seed}.json'))['cases']):
            json.dump({'meta':base['meta'],'records':recs+case_recs(c)},open(f'/tmp/xw/h/{name}_{seed}_{i}.json','w'))
            open(f'/tmp/xw/h/{name}_{seed}_{i}.key','w').write(f"{c['pipeline']} {c['size']} {c['dtype']}")
