# mech8.py DATA OUT [LEG-JSON]: writes OUT/leg-N-LABEL.json, four legs a side
# (A/B/A' has too few legs for a verdict, docs/design.md §5.4) made of the
# THP first-touch legs tests/data/mech-{a1,b,a2}.json and copies of them with
# every measured sample scaled by a few parts per thousand (counters as
# measured), each a run of its own. LEG-JSON, if given, is merged into each
# file's "leg" record with the variant and label filled in.
import json, os, sys

d, out = sys.argv[1], sys.argv[2]
extra = json.loads(sys.argv[3]) if len(sys.argv) > 3 else None
legs = (("mech-a1", "A", 1), ("mech-b", "B", 1), ("mech-a2", "A", 1), ("mech-b", "B", 1.002),
        ("mech-a1", "A", 1.003), ("mech-b", "B", 0.998), ("mech-a2", "A", 0.997), ("mech-b", "B", 1.001))
os.makedirs(out, exist_ok=True)
for i, (name, v, f) in enumerate(legs, 1):
    r = json.load(open("%s/%s.json" % (d, name)))
    if extra is not None:
        r["leg"] = dict(extra, variant=v, label=r["label"])
    r["start_time"] = "2026-12-01T%02d:00:00Z" % i
    for p in r["probes"]:
        for m in p["metrics"]:
            if m.get("better") != "none":
                m["samples"] = [x * f for x in m["samples"]]
                m.pop("summary", None)
    json.dump(r, open("%s/leg-%d-%s.json" % (out, i, r["label"]), "w"))
