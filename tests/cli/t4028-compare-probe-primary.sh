# compare: a probe's primary figures (kit/probe.h) are what a comparison's
# geomean covers of it (docs/design.md §5.11): a THP A/B/A of
# cpu.first_touch whose touch rate rose 4x and whose random access after
# rose 1.2x reads a geomean of the touch rate's 4x, not the 2.19x of both;
# --primary still names other figures. The legs are one run of this binary
# (which marks its metrics primary or not in the file), its medians scaled
# with a spread of 0.1% a sample, four a side
# (A/B/A' has too few legs for a verdict: t4000).
# test: sanitizers (C paths the unit tests miss: tools/sanitize-pick.sh)
. "$top/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "no python3 here to scale the legs"
"$MEMPATH" probe cpu.first_touch size=8M pages=default touch=write --reps 6 -o run.json >/dev/null 2>&1 ||
	fail "cpu.first_touch exited $?"
python3 - run.json <<'PY' || fail "the run's metrics do not say which are primary"
import json, sys
m = {x["name"]: x.get("primary") for x in json.load(open(sys.argv[1]))["probes"][0]["metrics"]}
assert m.get("touch_rate") is True and m.get("random_after") is False, m
PY
python3 - run.json <<'PY' || fail "could not write the legs"
import json, sys
run = json.load(open(sys.argv[1]))
legs = [("a%d" % k, 1, 1) if v == "A" else ("b%d" % k, 4, 1.2) for k in range(1, 5) for v in "AB"]
for n, (name, touch, after) in enumerate(legs):
    r = json.loads(json.dumps(run))
    r["start_time"] = "2026-12-01T0%d:00:00Z" % n  # legs are runs of their own
    for p in r["probes"]:
        for m in p["metrics"]:
            f = {"touch_rate": touch, "random_after": after}.get(m["name"], 1)
            # each sample its own value around the run's median: the legs'
            # ranks separate, and the spread is not the run's (beside another
            # make test random_after's scattered past its 1.2x: NOWIN)
            s = sorted(m["samples"])
            med = s[len(s) // 2]
            m["samples"] = [med * f * (1 + 0.001 * i) for i in range(len(s))]
            m.pop("summary", None)
    json.dump(r, open(name + ".json", "w"))
PY
set -- a1.json b1.json a2.json b2.json a3.json b3.json a4.json b4.json
"$MEMPATH" compare "$@" >c.txt 2>c.err
verdict_ok $? c.txt || fail "compare: $(cat c.err)"
grep -q '^summary: .*; geomean 4\.00[0-9]x over the 1 primary metric with a verdict' c.txt ||
	fail "the geomean is not the touch rate's: $(grep '^summary' c.txt)"
"$MEMPATH" compare "$@" --format json -o c.json >/dev/null 2>&1 ||
	fail "json exited $?"
grep -q '"probe_primary": true' c.json || fail "the comparison's JSON lacks probe_primary"
"$MEMPATH" report c.json | grep -q 'geomean 4\.00[0-9]x over the 1 primary metric' ||
	fail "read back: $("$MEMPATH" report c.json | grep '^summary')"
# --primary names the figure that matters: it is the geomean's
"$MEMPATH" compare "$@" --primary 'cpu.first_touch:random_after' \
	>p.txt 2>p.err
verdict_ok $? p.txt || fail "compare --primary: $(cat p.err)"
grep -q '^summary: .*; geomean 1\.20[0-9]x over the 1 primary metric' p.txt ||
	fail "--primary random_after is not the geomean: $(grep '^summary' p.txt)"
exit 0
