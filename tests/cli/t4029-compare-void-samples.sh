# compare and the samples a receipt voided (docs/design.md §4.18): a CPU
# migration voids the samples of its windows, not the metric. The legs are
# the A/A fixtures (tests/data/gen_fixtures.sh, cmp-aa-*) with one metric's
# windows marked as a cpu.latency chase's receipt marks them: with 2 of 10
# voided (their samples made 3x slower) the metric is judged on the 8 kept,
# compare.json counts the dropped samples per leg and the report says how
# many; with 5 of 10 voided the leg is too few (6 a leg in A/B/A').
. "$top/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 not installed (writes the legs)"
d=$top/tests/data
python3 - "$d" <<'PY' || fail "writing the legs"
import json, sys
d = sys.argv[1]
for name, voids in (("two", [2, 7]), ("five", [0, 1, 2, 3, 4])):
    r = json.load(open(d + "/cmp-aa-1.json"))
    m = r["probes"][0]["metrics"][0]  # touch_rate pages=4k
    for i in voids:
        m["samples"][i] /= 3
    ev = "%d CPU migrations in %d of 10 windows: %d samples dropped, %d kept" % (
        len(voids), len(voids), len(voids), 10 - len(voids))
    m["receipts"] = [{"assumes": "chase: no CPU migration", "state": "held",
                      "evidence": ev, "void_samples": voids}]
    json.dump(r, open(name + ".json", "w"))
PY
"$MEMPATH" report two.json >rep.txt || fail "report exited $?"
grep -q '^   samples dropped: touch_rate pages=4k,touch=write: 2 CPU migrations in 2 of 10 windows: 2 samples dropped, 8 kept$' rep.txt ||
	fail "report does not say what was dropped: $(cat rep.txt)"
# the summary written is of the kept samples; the file keeps all ten
"$MEMPATH" report two.json --format json -o r.json >/dev/null 2>err.txt || fail "report json: $(cat err.txt)"
python3 - <<'PY' || fail "the summary of the kept samples"
import json
a = json.load(open("r.json"))["probes"][0]["metrics"][0]
kept = [x for i, x in enumerate(a["samples"]) if i not in (2, 7)]
assert len(a["samples"]) == 10, a
assert abs(a["summary"]["min"] - min(kept)) < 1e-9 * min(kept), (a["summary"], kept)
PY
"$MEMPATH" compare two.json "$d/cmp-aa-2.json" "$d/cmp-aa-3.json" --format json -o c.json >c.txt 2>err.txt
verdict_ok $? err.txt "compare"
"$MEMPATH" compare two.json "$d/cmp-aa-2.json" "$d/cmp-aa-3.json" >t.txt 2>err.txt
grep -q '^note: cpu.first_touch touch_rate pages=4k,touch=write: 2 of 10 samples dropped in stock (a receipt voided their windows: a CPU migration, §4.18)' t.txt ||
	fail "the table's notes lack the dropped samples: $(cat t.txt)"
python3 - <<'PY' || fail "compare.json: the dropped samples"
import json
rows = json.load(open("c.json"))["metrics"]
r = [x for x in rows if x["metric"] == "touch_rate" and x["labels"]["pages"] == "4k"][0]
assert r["legs"][0]["n"] == 8 and r["legs"][0]["dropped"] == 2, r["legs"]
assert "dropped" not in r["legs"][1], r["legs"]
# 2 of 10 samples at a third of the rate would be a LOSS or unstable drift
# if they were judged; the kept 8 are the A/A distribution
assert r["verdict"] in ("nowin", "same", "few"), (r["verdict"], r["reason"])  # few: A/B/A' has too few legs (§5.4)
PY
# read back and rendered again: the dropped counts stay
"$MEMPATH" report c.json --format json -o c2.json >/dev/null 2>err.txt || fail "report c.json: $(cat err.txt)"
python3 -c "
import json
r=[x for x in json.load(open('c2.json'))['metrics'] if x['metric']=='touch_rate' and x['labels']['pages']=='4k'][0]
assert r['legs'][0]['dropped']==2, r['legs']" || fail "read back lost the dropped samples"
"$MEMPATH" compare five.json "$d/cmp-aa-2.json" "$d/cmp-aa-3.json" >f.txt 2>err.txt
grep '^cpu.first_touch touch_rate pages=4k' f.txt | grep -q 'n=5 in stock (6 per leg needed; 5 dropped by a receipt, §4.18)' ||
	fail "too few kept is not FEW with its reason: $(grep touch_rate f.txt)"
# a void_samples that names no sample is refused
python3 -c "
import json
r=json.load(open('two.json')); r['probes'][0]['metrics'][0]['receipts'][0]['void_samples']=[3,12]
json.dump(r,open('bad.json','w'))"
expect_fail 2 "$MEMPATH" report bad.json
exit 0
