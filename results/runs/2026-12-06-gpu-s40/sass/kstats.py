import re,sys,collections
cur=None; ks=collections.OrderedDict()
for line in open(sys.argv[1]):
    m=re.match(r'^\.text\.(\S+):',line)
    if m: cur=m.group(1); ks[cur]=collections.Counter(); continue
    m=re.match(r'\s+/\*[0-9a-f]{4,}\*/\s+(@!?U?P\w+\s+)?([A-Z0-9_.]+)',line)
    if m and cur: ks[cur][m.group(2).split('.')[0]]+=1; ks[cur]['_total']+=1
for k,c in ks.items():
    print(k, c['_total'], 'EX2',sum(v for o,v in c.items() if o=='MUFU'), dict(c.most_common(14)))
