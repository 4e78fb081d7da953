import halide as hl, numpy as np, time, sys
def build(cascade, K=4, P=16):
    x=hl.ImageParam(hl.Float(32),2,"x")
    n=x.dim(0).extent()
    row=hl.Var("row"); i=hl.Var("i")
    r=hl.RDom([hl.Range(0,n)],"r")
    s=hl.Func("s"); s[row]=0.0; s[row]+= x[r.x,row]*x[r.x,row]
    out=hl.Func("out"); out[i,row]=x[i,row]/hl.sqrt(s[row]/hl.f32(n)+hl.f32(1e-6))
    t=hl.get_host_target(); L=t.natural_vector_size(hl.Float(32))
    rc,rr,ro,rv=hl.RVar("rc"),hl.RVar("rr"),hl.RVar("ro"),hl.RVar("rv")
    v=hl.Var("v"); c=hl.Var("c"); vo,vv=hl.Var("vo"),hl.Var("vv")
    st=s.update()
    if cascade:
        st.split(r.x,rc,rr,K*L*P,hl.TailStrategy.GuardWithIf).split(rr,ro,rv,K*L,hl.TailStrategy.GuardWithIf)
    else:
        st.split(r.x,ro,rv,K*L,hl.TailStrategy.GuardWithIf)
    q=st.rfactor(rv,v)
    q.compute_at(out,row).vectorize(v,L)
    if cascade:
        p=q.update().rfactor(rc,c)
        p.compute_at(q,rc).vectorize(v,L)
        p.update().split(v,vo,vv,L).vectorize(vv).unroll(vo)
    q.update().split(v,vo,vv,L).vectorize(vv).unroll(vo)
    s.compute_at(out,row)
    out.vectorize(i,L,hl.TailStrategy.GuardWithIf).parallel(row)
    out.compile_jit(t)
    return x,out
for cascade in (0,1):
    x,out=build(cascade)
    for N in (1000,4096,65537,65536):
        M=max(1,(1<<22)//N)
        rng=np.random.default_rng(0)
        a=np.repeat(rng.uniform(-2,2,(M,1)).astype(np.float32),N,1)
        xb=hl.Buffer(a); x.set(xb)
        ob=hl.Buffer(hl.Float(32),[N,M])
        out.realize(ob)
        o=np.asarray(ob)
        a64=a.astype(np.float64); ref=a64/np.sqrt((a64*a64).mean(1,keepdims=True)+1e-6)
        err=np.max(np.abs(o-ref)/np.abs(ref))
        ts=[]
        for _ in range(30):
            t0=time.perf_counter(); out.realize(ob); ts.append(time.perf_counter()-t0)
        print('cascade',cascade,'N',N,'max rel err %.2e'%err,'median us %.0f'%(np.median(ts)*1e6))
