# compare: the geomean of a wrap comparison covers its primary figure only:
# the workload's own figures with a direction (tokens/s, GB/s), or wall time
# when the workload reported none; user and sys time explain a change, they
# are not it (a wrap A/B read "geomean 1.104x" while wall time was +9% and
# user time +52%). Legs made from the committed wrap run, scaled, four a side
# (A/B/A' has too few legs for a verdict: t4000).
# test: sanitizers (C paths the unit tests miss: tools/sanitize-pick.sh)
. "$top/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "no python3 here to scale the legs"
python3 - "$top/docs/results/wrap-decode-2026-11-30.json" <<'PY' || fail "could not write the legs"
import json, sys
run = json.load(open(sys.argv[1]))
legs = 0
def leg(out, label, own, user, wall, keep_own=True):
    global legs
    r = json.loads(json.dumps(run))
    r["label"] = label
    # each leg a run of its own (compare refuses one run given twice)
    legs += 1
    r["start_time"] = "2026-11-30T%02d:00:00Z" % legs
    for p in r["probes"]:
        if p["name"] != "work.wrap":
            continue
        if not keep_own:
            p["metrics"] = [m for m in p["metrics"] if m["name"] not in ("tokens_per_s", "weights_bw", "kv_bw")]
        for m in p["metrics"]:
            f = {"tokens_per_s": own, "weights_bw": own, "kv_bw": own, "user_time": user, "wall_time": wall}.get(m["name"], 1)
            m["samples"] = [x * f for x in m["samples"]]
            m.pop("summary", None)
    json.dump(r, open(out, "w"))
for i in range(1, 5):
    leg("a%d.json" % i, "A", 1, 1, 1); leg("b%d.json" % i, "B", 1.5, 1.5, 1)
    leg("na%d.json" % i, "A", 1, 1, 1, False); leg("nb%d.json" % i, "B", 1, 1.5, 1.25, False)
PY
set -- a1.json b1.json a2.json b2.json a3.json b3.json a4.json b4.json
"$MEMPATH" compare "$@" >c.txt 2>c.err
verdict_ok $? c.txt || fail "compare: $(cat c.err)"
grep '^work.wrap user_time ' c.txt | grep -q 'LOSS$' || fail "user time +50% is not a LOSS: $(grep user_time c.txt)"
grep -q '^summary: .*; geomean 1.500x over the 3 primary metrics with a verdict (>1: B better)' c.txt ||
	fail "the geomean is not the workload's own figures': $(grep '^summary' c.txt)"
# as it was decided: the comparison's JSON, read back
"$MEMPATH" compare "$@" --format json -o c.json >/dev/null 2>&1
"$MEMPATH" report c.json | grep -q 'geomean 1.500x over the 3 primary metrics' ||
	fail "read back: $("$MEMPATH" report c.json | grep '^summary')"
# no figure of the workload's own: wall time alone (1.25x longer: 0.8x)
"$MEMPATH" compare na1.json nb1.json na2.json nb2.json na3.json nb3.json na4.json nb4.json >n.txt 2>n.err
verdict_ok $? n.txt || fail "compare: $(cat n.err)"
grep -q '^summary: .*; geomean 0.800x over the 1 primary metric with a verdict' n.txt ||
	fail "the geomean is not wall time's: $(grep '^summary' n.txt)"
exit 0
