import json, glob, os, sys
out = sys.argv[1]
print("trial\texit\twall_s\tcomparison\tmetric\tlabels\tverdict\ttrusted\tchange\tci95\theterogeneous\tdepends_on_load\tload_p\trounds_busy")
for rc in sorted(glob.glob(f"{out}/*.rc")):
    base = rc[:-3]; name = os.path.basename(base)
    code = open(rc).read().strip(); wall = open(base + ".wall").read().strip()
    docs = []
    if os.path.exists(f"{base}/compare.json"):
        docs = [("A-B", json.load(open(f"{base}/compare.json")))]
    elif os.path.exists(f"{base}/study.json"):
        s = json.load(open(f"{base}/study.json"))
        docs = [(f"{x['a']}-{x['b']}", x["comparison"]) for x in s["comparisons"]]
    if not docs:
        print(f"{name}\t{code}\t{wall}\t-\t(no comparison)")
    for cmpn, d in docs:
        for m in d["metrics"]:
            if m["control"] or m["better"] == "none":
                continue
            h = m.get("heterogeneity") or {}
            ci = m.get("ci95") or [None, None]
            f = lambda x: "" if x is None else "%+.1f" % (100 * x)
            busy = ",".join("%.2f" % r["busy"] if r.get("busy") is not None else "-" for r in h.get("rounds", []))
            print("\t".join([name, code, wall, cmpn, m["metric"], ",".join(f"{k}={v}" for k, v in m["labels"].items()),
                             m["verdict"], str(d["summary"]["trusted"]), f(m.get("change")), f"[{f(ci[0])}, {f(ci[1])}]",
                             str(bool(h.get("heterogeneous"))), str(bool(h.get("depends_on_load"))),
                             "" if h.get("load_p") is None else "%.2g" % h["load_p"], busy]))
