#!/usr/bin/env python3
# usage: tools/twenty_objective_seeds.py BINARY OUT.json [extra suggest flags...]
# (issue #38, item 4; docs/suggest.md, "Ranking, and ties")
# For every bundled position and seeds 0-7: `suggest --objective twenty`; the top flick's
# reported P(20), and its P(20) re-measured by a 4000-sample study (seed 99) of that flick.
import json, subprocess, sys, glob, os, tempfile
b, out = sys.argv[1], sys.argv[2]
extra = sys.argv[3:]
root = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'fixtures', 'suggest') + '/'
files = sorted(f for f in glob.glob(root + '*.json') if 'golden' not in f) + sorted(glob.glob(root + 'spread/*.json'))
res = {}
fails = 0
tmp = tempfile.mkdtemp()
for f in files:
    row = []
    base = json.load(open(f))
    base.pop('search', None)
    base.pop('description', None)
    for seed in range(8):
        p = json.loads(subprocess.run([b, 'suggest', f, '--objective', 'twenty', '--seed', str(seed), '-j', '2'] + extra, capture_output=True, check=True).stdout)
        top = p['top'][0]
        study = dict(base, flick=top['flick'])
        sf = os.path.join(tmp, 'study.json')
        json.dump(study, open(sf, 'w'))
        m = json.loads(subprocess.run([b, 'montecarlo', sf, '--samples', '4000', '--seed', '99', '-j', '2'], capture_output=True, check=True).stdout)
        row.append((top['classes']['twenty']['p'], m['shooter']['twenty']['p']))
    res[f.split('/suggest/')[1]] = row
    best = max(r[1] for r in row)
    worst = min(r[1] for r in row)
    flag = '' if best - worst <= 0.05 else '  <-- FAIL'
    fails += bool(flag)
    print(f"{f.split('/suggest/')[1]:34s} " + ' '.join(f"{r[1]:.2f}" for r in row) + f"  best {best:.2f} spread {best-worst:.2f}{flag}", flush=True)
print(f"{fails} positions fail")
json.dump(res, open(out, 'w'))
