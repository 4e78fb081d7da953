import json, math, sys
from collections import defaultdict
ROWS=('softmax','rmsnorm_residual','layernorm')
def load(fn, target='cuda'):
    d=json.load(open(fn)); kinds=defaultdict(dict)
    for r in d['records']:
        if r.get('kind')!='fuselab' or r['workload'] not in ROWS or not r.get('ok') or not r.get('median_us'): continue
        if (r.get('target') or 'cuda')!=target: continue
        n,m=map(int,r['size'].split('x'))
        kinds[(r['workload'],r.get('dtype','float32'))].setdefault(r['size'],{'N':n,'M':m,'t':{}})['t'].setdefault(r['name'],r['median_us'])
    return kinds
def acls(n,cap=8):
    n=int(n); c=0
    while c<cap and n%2==0: n//=2; c+=1
    return c
def whole(n,dt): return n % (4 if dt=='float32' else 8)==0
CH=(2048,4096,8192,16384)
def fill(n,c): return n/(math.ceil(n/c)*c)
LIM={'warp_regs_1k':('n',1024),'staged_row_2k':('b',40960),'staged_row_4k':('b',40960),'adjacent_staged_2k':('b',40960),'staged_row_8k':('b',196608),'staged_row_16k':('b',196608),'staged_row_wide':('b',196608)}
def runs(k,N,dt):
    if k not in LIM: return True
    t,v=LIM[k]
    return N<=v if t=='n' else N*(4 if dt=='float32' else 2)<=v
def pick(shapes, dt, N, M, skip, fw=0.0, chunks=CH, K=3, near_max=3.0, scheds=None):
    scheds=[k for k in scheds if runs(k,N,dt)]
    vc=acls(16//(4 if dt=='float32' else 2))
    cq=acls(N,vc); wq=whole(N,dt)
    near=[]
    for size,s in shapes.items():
        if size==skip: continue
        d=abs(math.log2(N)-math.log2(s['N']))+0.25*abs(cq-min(acls(s['N']),vc))+(0.5 if wq!=whole(s['N'],dt) else 0)+0.5*abs(math.log2(M)-math.log2(s['M']))
        if fw: d+=fw*sum(abs(fill(N,c)-fill(s['N'],c)) for c in chunks)
        if d<=near_max:
            ran=sum(1 for k in scheds if k in s['t'])
            if ran>=2: near.append((d,s,ran))
    if not near: return None
    winners=set()
    for d,s,ran in near:
        if whole(s['N'],dt)!=wq: continue
        ts={k:s['t'][k] for k in scheds if k in s['t']}
        if ts: winners.add(min(ts,key=ts.get))
    cov=[x for x in near if all(w in x[1]['t'] for w in winners)]
    if cov: near=cov
    most=max(x[2] for x in near); near=[x for x in near if 4*x[2]>=3*most]
    near.sort(key=lambda x:x[0]); near=near[:K]
    score=defaultdict(lambda:[0.0,0.0])
    for d,s,ran in near:
        ts={k:s['t'][k] for k in scheds if k in s['t']}; best=min(ts.values()); w=1/(d+0.05)
        for k,t in ts.items(): score[k][0]+=w*math.log(t/best); score[k][1]+=w
    return min(score,key=lambda k:(score[k][0]/score[k][1],k))
def loo(kinds, **kw):
    ok=0; tot=0; logs=0; worst=1
    for (p,dt),shapes in kinds.items():
        scheds=sorted({k for s in shapes.values() for k in s['t']})
        for size,s in shapes.items():
            if len(s['t'])<2: continue
            k=pick(shapes,dt,s['N'],s['M'],size,scheds=scheds,**kw)
            if k is None or k not in s['t']: continue
            reg=s['t'][k]/min(s['t'].values()); tot+=1; ok+=reg<=1.10; logs+=math.log(reg); worst=max(worst,reg)
    return ok,tot,math.exp(logs/tot),worst
if __name__=='__main__':
    k=load(sys.argv[1])
    for fw in (0,0.25,0.5,1.0,2.0):
        print(fw, loo(k,fw=fw))

def compare(fn, choice_txt):
    k=load(fn); cpp={}
    for line in open(choice_txt):
        f=line.split()
        if len(f)>=7 and f[0] in ROWS and f[5]=='measured': cpp[(f[0],f[2],f[1])]=f[3]
    agree=dis=0; ex=[]
    for (p,dt),shapes in k.items():
        scheds=sorted({x for s in shapes.values() for x in s['t']})
        for size,s in shapes.items():
            c=cpp.get((p,dt,size))
            if c is None: continue
            mine=pick(shapes,dt,s['N'],s['M'],size,scheds=scheds)
            if mine==c: agree+=1
            else: dis+=1; ex.append((p,dt,size,mine,c))
    print('agree',agree,'disagree',dis, ex[:8])
