# inject.py SRC OUT TEXT [run]: the results file SRC with TEXT in its label,
# host name, every metric name, a label value of each metric, each probe's
# reason and a knob, written to OUT (tests/cli/t5207-escape-writers.sh);
# with "run", in what a history keeps of the run instead: its label, host
# name, suite, start_time and end_time, the metrics as they were (t5220).
import json, sys
src, out, text = sys.argv[1], sys.argv[2], sys.argv[3]
j = json.load(open(src))
j["label"] = text
j["host"]["hostname"] = text
if sys.argv[4:] == ["run"]:
    j["suite"] = text
    for k in ("start_time", "end_time"):
        j[k] = (j.get(k) or "") + text
    json.dump(j, open(out, "w"))
    sys.exit(0)
for p in j["probes"]:
    for m in p.get("metrics", []):
        m["name"] = m["name"] + text
        if "labels" in m and m["labels"]:
            k = list(m["labels"])[0]; m["labels"][k] = text
    p["status"] = "fail"; p["reason"] = text
ks = j["host"].get("knobs")
if isinstance(ks, dict) and ks:
    k = list(ks)[0]; ks[k] = text
json.dump(j, open(out, "w"))
