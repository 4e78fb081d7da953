import sys; sys.path.insert(0,'python')
import numpy as np, fuselab
rng=np.random.default_rng(0)
n=65537
for sched in ('unfused','block_row','two_pass'):
    k=fuselab.kernel('rmsnorm_residual', schedule=sched, target='cpu') if True else None
    worst=0
    for t in range(10):
        v=rng.uniform(-1,1,(3,1)).astype(np.float32)
        x=np.repeat(v,n,1); res=np.repeat(rng.uniform(-1,1,(3,1)).astype(np.float32),n,1)
        w=rng.uniform(-1,1,n).astype(np.float32)
        o=k(x=x,residual=res,w=w)
        out=o[0] if isinstance(o,tuple) else o['out'] if isinstance(o,dict) else o
        h=(x.astype(np.float32)+res).astype(np.float64)
        ref=h/np.sqrt((h*h).mean(1,keepdims=True)+1e-6)*w
        err=np.linalg.norm(np.asarray(out,np.float64)-ref)/np.linalg.norm(ref)
        worst=max(worst,err)
    print(sched, 'worst norm err %.2e'%worst)
