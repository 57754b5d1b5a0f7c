#!/usr/bin/env python3
"""Each probe of a results file and, per label set, when its counted samples
ran (seconds from the probe's start) and the gap before them: where a
suite's time goes. python3 spans.py RESULTS.json"""
import json,sys
d=json.load(open(sys.argv[1]))
for p in d['probes']:
    if p.get('status')!='ok': continue
    print('== %s %.1f s' % (p['name'], p['wall_s']))
    seen={}
    for m in p['metrics']:
        t=[x for x in (m.get("t") or []) if x and x[0] is not None]
        if not t: continue
        key=json.dumps(m['labels'],sort_keys=True)
        a=min(x[0] for x in t); b=max(x[1] for x in t)
        if key in seen: continue
        seen[key]=(a,b,m['name'])
    prev=0
    for k,(a,b,n) in sorted(seen.items(), key=lambda kv: kv[1][0]):
        print('   %6.2f-%6.2f (gap %5.2f, counted %5.2f) %s %s' % (a,b,a-prev,b-a,n,k))
        prev=b
