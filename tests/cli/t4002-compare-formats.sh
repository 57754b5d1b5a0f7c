# compare: Markdown in the findings-table layout (docs/design.md §10.7), JSON written by jansson, -o.
. "$top/tests/cli/lib.sh"
d=$top/tests/data
# four legs a side (A/B/A' has too few legs for a verdict: t4000)
set -- "$d/cmp-aa-1.json" "$d/cmp-effect-b.json" "$d/cmp-aa-3.json" "$d/cmp-effect-b2.json" \
	"$d/cmp-aa-4.json" "$d/cmp-effect-b3.json" "$d/cmp-aa-5.json" "$d/cmp-effect-b4.json" \
	--control 'cpu.first_touch,pages=thp'
"$MEMPATH" compare "$@" --format md >c.md || fail "md failed"
grep -q '^| metric | stock | patched | stock again | patched again | stock (3) | patched (3) | stock (4) | patched (4) | verdict |$' c.md || fail "md header: $(cat c.md)"
grep -Fq '| cpu.first_touch touch_rate pages=4k,touch=write | 1.99 GiB/s | 2.39 GiB/s (+19.9%) | 2 GiB/s | 2.39 GiB/s (+19.8%) | 1.99 GiB/s | 2.38 GiB/s (+19.5%) | 2 GiB/s | 2.4 GiB/s (+20.5%) | WIN |' c.md ||
	fail "md row: $(grep 'touch_rate pages=4k' c.md)"
grep -q '^summary: 1 WIN, 0 LOSS, 3 NOWIN, 0 UNSTABLE' c.md || fail "md summary"
"$MEMPATH" compare "$@" --format json -o c.json >stdout.txt || fail "json failed"
[ ! -s stdout.txt ] || fail "-o still printed to stdout"
grep -q '"schema": "mempath/compare/1"' c.json || fail "json schema"
grep -q '"verdict": "win"' c.json || fail "json verdict"
if command -v python3 >/dev/null 2>&1; then
	python3 -c 'import json,sys; j=json.load(open("c.json")); assert len(j["legs"]) == 8; assert j["summary"]["counts"]["win"] == 1' ||
		fail "json does not parse or lacks fields"
fi
# the same files give the same report (fixed bootstrap seed)
"$MEMPATH" compare "$@" --format json -o c2.json
cmp -s c.json c2.json || fail "two runs differ"
exit 0
