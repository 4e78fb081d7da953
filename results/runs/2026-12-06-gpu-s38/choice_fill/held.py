import sys, json, math; sys.path.insert(0, __import__('os').path.dirname(__file__)); import sim
tabs={'h200':sim.load('results/h200.json'),'h100':sim.load('results/h100.json')}
files=sys.argv[1:]
for fw in (0.0,0.5):
    for tn,t in tabs.items():
        ok=tot=0; worst=1; logs=0
        for fn in files:
            for c in json.load(open(fn))['cases']:
                ts={k:v for k,v in c.get('times_us',{}).items() if v}
                if not ts: continue
                shapes=t.get((c['pipeline'],c['dtype']))
                if not shapes: continue
                n,m=map(int,c['size'].split('x'))
                scheds=sorted({x for s in shapes.values() for x in s['t']} & set(ts))
                p=sim.pick(shapes,c['dtype'],n,m,None,fw=fw,chunks=(1024,2048,4096,8192,16384),scheds=scheds)
                if p is None: continue
                r=ts[p]/min(ts.values()); tot+=1; ok+=r<=1.10; worst=max(worst,r); logs+=math.log(r)
        print(f'fw {fw} table {tn}: {ok}/{tot} worst {worst:.2f} gm {math.exp(logs/max(tot,1)):.3f}')
