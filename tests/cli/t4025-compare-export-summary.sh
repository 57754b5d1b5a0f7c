# compare --export-summary FILE: medians, mean +- sigma, p5..p95 per leg, the
# change with its 95% CI, p and the verdict per metric, the summary line and
# the headline; no samples. JSON or CSV by the name; any other name is a
# usage error before any work.
# test: sanitizers (C paths the unit tests miss: tools/sanitize-pick.sh)
. "$top/tests/cli/lib.sh"
d=$top/tests/data
# four legs a side (A/B/A' has too few legs for a verdict: t4000)
set -- "$d/cmp-aa-1.json" "$d/cmp-effect-b.json" "$d/cmp-aa-3.json" "$d/cmp-effect-b2.json" \
	"$d/cmp-aa-4.json" "$d/cmp-effect-b3.json" "$d/cmp-aa-5.json" "$d/cmp-effect-b4.json"
"$MEMPATH" compare "$@" --export-summary s.json >/dev/null 2>err.txt || fail "compare: $(cat err.txt)"
"$MEMPATH" compare "$@" --export-summary s.csv >/dev/null 2>err.txt || fail "compare: $(cat err.txt)"
command -v python3 >/dev/null 2>&1 || skip "no python3 here to read the JSON (the CSV was written)"
python3 - <<'PY' || fail "the summary files"
import csv, json
s = json.load(open("s.json"))
assert s["schema"] == "mempath/summary/1", s["schema"]
row = [m for m in s["metrics"] if m["key"] == "cpu.first_touch touch_rate pages=4k,touch=write"][0]
assert row["verdict"] == "win", row
assert len(row["legs"]) == 8 and all(l["n"] == 10 and l["sigma"] > 0 for l in row["legs"]), row["legs"]
lo, hi = row["ci95"]
assert lo < row["change"] < hi, row
assert "samples" not in json.dumps(s), "samples in the summary"
assert s["headline"].startswith("patched is 1.2x faster"), s["headline"]
assert s["summary"].startswith("summary: 1 WIN"), s["summary"]
rows = list(csv.DictReader(open("s.csv")))
c = [r for r in rows if r["metric"] == row["key"]][0]
assert c["verdict"] == "win" and abs(float(c["median_b"]) - row["median_b"]) < 1e-5 * row["median_b"], c
assert float(c["leg2_sigma"]) > 0 and c["leg2_n"] == "10", c
assert len(rows) == len(s["metrics"]), (len(rows), len(s["metrics"]))
PY
expect_fail 2 "$MEMPATH" compare "$d/cmp-aa-1.json" "$d/cmp-effect-b.json" --export-summary s.txt
exit 0
