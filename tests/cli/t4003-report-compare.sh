# report: a comparison file (compare --format json) renders as compare printed
# it, without reading the legs' results files again; CSV has one row per
# metric; corrupt comparison files give one error line and exit 2.
# tests/data/corrupt-compare-*.json are tests/data/compare-effect.json (a
# trimmed compare of cmp-aa-1, cmp-effect-b, cmp-aa-3) with one fault each.
# test: sanitizers (C paths the unit tests miss: tools/sanitize-pick.sh)
. "$top/tests/cli/lib.sh"
d=$top/tests/data
# four legs a side: A/B/A' has too few legs for a verdict (t4000)
eff8="$d/cmp-aa-1.json $d/cmp-effect-b.json $d/cmp-aa-3.json $d/cmp-effect-b2.json $d/cmp-aa-4.json"
eff8="$eff8 $d/cmp-effect-b3.json $d/cmp-aa-5.json $d/cmp-effect-b4.json"
for legs in "$eff8" "$d/cmp-aa-1.json $d/cmp-effect-b.json $d/cmp-aa-3.json" \
	"$d/cmp-aa-1.json $d/cmp-missing-b.json $d/cmp-void-a2.json" \
	"$d/cmp-aa-1.json $d/cmp-knob-b.json $d/cmp-aa-3.json"; do
	# shellcheck disable=SC2086 # the legs are words
	set -- $legs --control 'cpu.first_touch,pages=thp'
	# 3: no trusted verdict (the control is void in the second set, knobs
	# differ in the third); the file is written all the same
	"$MEMPATH" compare "$@" --format json -o c.json || [ $? -eq 3 ] || fail "compare json failed: $*"
	for f in md term; do
		"$MEMPATH" compare "$@" --format $f >want.$f || [ $? -eq 3 ] || fail "compare $f failed"
		"$MEMPATH" report c.json --format $f >got.$f || fail "report $f failed: $(cat got.$f)"
		cmp -s want.$f got.$f || fail "report $f differs from compare $f: $(diff want.$f got.$f)"
	done
	"$MEMPATH" report c.json --format json -o again.json || fail "report json failed"
	cmp -s c.json again.json || fail "json re-dump differs: $(diff c.json again.json)"
done

# the legs' results files are named, not read: the comparison stands alone
i=0
for f in $eff8; do
	i=$((i + 1))
	cp "$f" leg$i.json
done
"$MEMPATH" compare leg1.json leg2.json leg3.json leg4.json leg5.json leg6.json leg7.json leg8.json \
	--format json -o alone.json
rm leg?.json
"$MEMPATH" report alone.json --format md >alone.md || fail "report needed the legs' files"
grep -q '| WIN |$' alone.md || fail "verdicts lost: $(cat alone.md)"

# CSV: a header and one row per metric, the verdict and control per row
# shellcheck disable=SC2086
"$MEMPATH" compare $eff8 --control 'cpu.first_touch,pages=thp' --format json -o c.json
"$MEMPATH" report c.json --format csv >c.csv || fail "csv failed"
head -1 c.csv | grep -qx 'key,unit,better,stock,patched,stock again,patched again,stock (3),patched (3),stock (4),patched (4),change,ci_lo,ci_hi,p_adjusted,verdict,control' ||
	fail "csv header: $(head -1 c.csv)"
rows=$(grep -c '"verdict":' c.json)
[ "$rows" -gt 0 ] && [ "$(wc -l <c.csv)" -eq $((rows + 1)) ] ||
	fail "csv has $(wc -l <c.csv) lines for $rows metrics"
grep -q '^"cpu.first_touch touch_rate pages=4k,touch=write",GiB/s,higher,1.99[0-9]*,2.39[0-9]*,1.99[0-9]*,2.38[0-9]*,1.98[0-9]*,2.38[0-9]*,2.00[0-9]*,2.40[0-9]*,0.19[0-9]*,.*,win,no$' c.csv ||
	fail "csv WIN row: $(grep 'pages=4k,touch=write",GiB' c.csv)"
grep -q '^"cpu.first_touch touch_rate pages=thp,touch=write",.*,nowin,yes$' c.csv || fail "csv control row"
grep -q '^"cpu.first_touch thp_backed pages=4k,touch=write",MiB,none,0,0,0,0,0,0,0,0,,,,,fact,no$' c.csv ||
	fail "csv fact row: $(grep 'thp_backed pages=4k' c.csv)"

# a committed comparison file reads (the base of the corrupt ones)
"$MEMPATH" report "$d/compare-effect.json" --format csv >base.csv || fail "compare-effect.json refused"
[ "$(wc -l <base.csv)" -eq 3 ] || fail "compare-effect.json csv: $(cat base.csv)"

n=0
for f in "$d"/corrupt-compare-*.json; do
	for fmt in term csv; do
		expect_fail 2 "$MEMPATH" report "$f" --format $fmt
		grep -Fq "'$f'" err.txt || fail "error does not name the file: $(cat err.txt)"
		[ ! -s out.txt ] || fail "output from a corrupt file: $(cat out.txt)"
	done
	n=$((n + 1))
done
[ $n -ge 10 ] || fail "only $n corrupt comparison fixtures"
expect_fail 2 "$MEMPATH" report "$d/corrupt-compare-verdict.json"
grep -q 'not a valid mempath comparison file: metrics\[0\].verdict is not a known verdict' err.txt ||
	fail "verdict: $(cat err.txt)"
expect_fail 2 "$MEMPATH" report "$d/corrupt-compare-median-string.json"
grep -q 'metrics\[0\].legs\[1\].median is not a number' err.txt || fail "median: $(cat err.txt)"
expect_fail 2 "$MEMPATH" report "$d/corrupt-compare-truncated.json"
grep -q 'is not valid JSON' err.txt || fail "truncated: $(cat err.txt)"
# compare refuses a comparison file as a leg: it is not a results file
expect_fail 2 "$MEMPATH" compare "$d/compare-effect.json" "$d/cmp-aa-1.json"
grep -q "has schema 'mempath/compare/1', expected 'mempath/run/1'" err.txt || fail "leg: $(cat err.txt)"
exit 0
