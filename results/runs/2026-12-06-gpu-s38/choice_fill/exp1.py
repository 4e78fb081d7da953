import sys, math; sys.path.insert(0, __import__('os').path.dirname(__file__)); import sim
k=sim.load(sys.argv[1])
base={}
def run(**kw):
    res={}
    for (p,dt),shapes in k.items():
        scheds=sorted({x for s in shapes.values() for x in s['t']})
        for size,s in shapes.items():
            if len(s['t'])<2: continue
            c=sim.pick(shapes,dt,s['N'],s['M'],size,scheds=scheds,**kw)
            if c is None or c not in s['t']: continue
            res[(p,dt,size)]=s['t'][c]/min(s['t'].values())
    return res
b=run()
def summ(r,keys):
    v=[r[x] for x in keys if x in r]
    return sum(1 for x in v if x<=1.10), len(v), math.exp(sum(map(math.log,v))/len(v)), max(v)
print('base',summ(b,b.keys()))
for fw in [float(x) for x in sys.argv[2].split(',')]:
    for ch in [(1024,2048,4096,8192,16384)]:
        r=run(fw=fw,chunks=ch)
        common=[x for x in b if x in r]
        print(fw,ch,'all',summ(r,r.keys()),'common',summ(r,common),'base-common',summ(b,common))
