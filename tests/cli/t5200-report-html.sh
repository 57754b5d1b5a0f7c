# reports: --format html on results files (matrices, bar charts) and on
# comparisons (coloured verdicts, the moved-controls warning first, a forest
# plot); one self-contained page, no scripts, balanced SVG, no "nan" or "inf"
# where a number goes; probe, run and compare take --format html too.
. "$top/tests/cli/lib.sh"
d=$top/tests/data

# page: a whole HTML5 document, nothing external, nothing that runs
page() {
	[ "$(head -1 "$1")" = '<!DOCTYPE html>' ] || fail "$1 does not begin with the doctype: $(head -1 "$1")"
	[ "$(tail -1 "$1")" = '</html>' ] || fail "$1 does not end with </html>: $(tail -1 "$1")"
	[ "$(grep -c '<body>' "$1")" -eq 1 ] && [ "$(grep -c '</body>' "$1")" -eq 1 ] || fail "$1: body"
	open=$(grep -o '<svg[ >]' "$1" | wc -l)
	close=$(grep -o '</svg>' "$1" | wc -l)
	[ "$open" -eq "$close" ] || fail "$1: $open <svg> but $close </svg>"
	! grep -qi '<script\|<link\|<iframe\|<img\|src=\|href=\|@import\|url(' "$1" ||
		fail "$1 loads or runs something: $(grep -i '<script\|<link\|src=\|href=\|url(' "$1")"
	! grep -Eqi '="-?(nan|inf)|>-?(nan|inf)[%<]' "$1" || fail "$1 prints a non-finite number: $(grep -Ei 'nan|inf' "$1")"
}
# text FILE: the page without tags, one space between words
text() { sed 's/<[^>]*>/ /g' "$1" | tr -s ' \t' '  '; }

# results: matrices pivoted by matrix.c, shaded; other metrics as table rows
"$MEMPATH" report "$d/p2p-4gpu.json" --format html >p4.html || fail "html report failed"
page p4.html
grep -q '<title>mempath results: 4gpu-pcie</title>' p4.html || fail "title: $(grep '<title>' p4.html)"
[ "$(grep -c '<tr><th>D\\D</th><th>0</th><th>1</th><th>2</th><th>3</th></tr>' p4.html)" -eq 3 ] ||
	fail "expected 3 matrices of 4 GPUs: $(grep 'D\\D' p4.html)"
grep -Fq '<p><b>p2p_bw</b> engine=ce,peer=enabled,mode=write (GB/s; median of 3 samples, CoV max 0.2%); rows src, columns dst</p>' p4.html ||
	fail "matrix title: $(grep p2p_bw p4.html)"
text p4.html >p4.txt
grep -q '^ 0 - 24.61 11.92 11.88 $' p4.txt || fail "matrix row 0: $(grep '^ 0 ' p4.txt)"
grep -q '^ 3 11.90 11.86 24.60 - $' p4.txt || fail "matrix row 3: $(grep '^ 3 ' p4.txt)"
grep -q '^ 2 6.04 6.01 - - $' p4.txt || fail "staged matrix, missing pair: $(grep '^ 2 ' p4.txt)"
grep -q 'style="background:hsl(' p4.html || fail "matrix cells not shaded"
grep -q '<td>sm_clock</td><td>during=probe</td><td class="n">1980.0</td>' p4.html || fail "metric row"
! grep -q '<td>p2p_bw</td>' p4.html || fail "matrix cells also printed as rows"
grep -q '<li>host: fixture, kernel 6.1.0-test, Fixture CPU</li>' p4.html || fail "host line"
grep -q '<li>suite: p2p; mempath 0.1.0 (fixture)</li>' p4.html || fail "suite line"
"$MEMPATH" report "$d/p2p-8gpu.json" --format html >p8.html || fail "8-GPU html failed"
page p8.html
text p8.html | grep -q '^ 7 - 397.1 397.2 397.3 397.4 397.5 397.6 - $' || fail "8-GPU row 7"

# results: one bar chart per quantity measured under several label sets
"$MEMPATH" report "$d/cmp-aa-1.json" --format html -o aa.html >stdout.txt || fail "html -o failed"
[ ! -s stdout.txt ] || fail "-o still printed to stdout"
page aa.html
n=$(grep -c '<svg ' aa.html)
[ "$n" -eq 3 ] || fail "expected 3 bar charts (touch_rate, thp_backed, random_after), got $n"
grep -q '<p><b>touch_rate</b> per label set (GiB/s; median, whiskers p5-p95)</p>' aa.html || fail "chart caption"
[ "$(grep -c '<rect class="bar"' aa.html)" -eq 6 ] || fail "expected 6 bars: $(grep -c 'class="bar"' aa.html)"
[ "$(grep -c '<line class="wh"' aa.html)" -gt 0 ] || fail "no whiskers"
grep -q '<text [^>]*>pages=thp,touch=write</text>' aa.html || fail "bar labels"
grep -q '<text [^>]*text-anchor="start">12.1</text>' aa.html || fail "median text by the bar"
grep -q '<text [^>]*>GiB/s</text>' aa.html || fail "axis unit"
grep -q '<td>touch_rate</td><td>pages=4k,touch=write</td><td class="n">1.99</td><td class="n">1.97</td><td class="n">2.01</td><td class="n">0.8%</td><td class="n">10</td><td>GiB/s</td>' aa.html ||
	fail "metric table row: $(grep 'touch_rate</td>' aa.html)"

# comparisons: a moved control is said first, verdicts coloured by class
# four legs a side, A first (A/B/A' has too few legs for a verdict: t4000)
legs8() { echo "$d/cmp-aa-1.json $d/$1 $d/cmp-aa-3.json $d/$2 $d/cmp-aa-4.json $d/$3 $d/cmp-aa-5.json $d/$4"; }
# shellcheck disable=SC2046 # paths without spaces
set -- $(legs8 cmp-control-b.json cmp-control-b2.json cmp-control-b3.json cmp-control-b4.json) \
	--control 'cpu.first_touch,pages=thp'
"$MEMPATH" compare "$@" --format html >ctl.html || [ $? -eq 3 ] || fail "compare html failed"
page ctl.html
first=$(sed -n '/<h1>/{n;p;q}' ctl.html)
case $first in
'<p class="warn">controls moved - verdicts untrusted: cpu.first_touch touch_rate pages=thp,touch=write (LOSS)'*) ;;
*) fail "moved controls not first: $first" ;;
esac
grep -q '<td class="v-win">WIN</td>' ctl.html || fail "WIN cell"
grep -q '<td class="v-loss">LOSS (control MOVED)</td>' ctl.html || fail "moved control cell"
grep -q '<td class="v-nowin">~: not significant (p=[0-9.e-]* after Holm)</td>' ctl.html || fail "NOWIN cell with its reason"
grep -q '<td class="v-fact">fact (control)</td>' ctl.html || fail "fact cell"
grep -q '<td class="n">2.39 GiB/s (+20.0%)</td>' ctl.html || fail "B leg with its change"
grep -q '<td class="n">+20.2%</td><td class="n">\[+19.4, +21.0\]%</td>' ctl.html || fail "change and CI (the legs' CI: the bootstrap widened to their spread)"
grep -q '^<p>no trusted verdict (2 controls moved): 1 WIN and 0 LOSS not trusted, 3 NOWIN, 0 UNSTABLE; no geomean' ctl.html ||
	fail "summary line: $(grep 'trusted verdict' ctl.html)"
# forest plot: one dot per judged metric, a zero line, threshold bands
[ "$(grep -c '<svg ' ctl.html)" -eq 1 ] || fail "expected one forest plot"
[ "$(grep -c '<circle class="v-' ctl.html)" -eq 6 ] || fail "dots: $(grep -c '<circle' ctl.html)"
[ "$(grep -c '<circle class="v-loss"' ctl.html)" -eq 2 ] || fail "LOSS dots"
grep -q '<line class="zero"' ctl.html || fail "no zero line"
[ "$(grep -c '<rect class="band"' ctl.html)" -eq 6 ] || fail "threshold bands"
grep -q '<text [^>]*>×1</text>' ctl.html || fail "the ratio axis has no ×1 tick"
# without a moved control there is no warning
# shellcheck disable=SC2046
"$MEMPATH" compare $(legs8 cmp-effect-b.json cmp-effect-b2.json cmp-effect-b3.json cmp-effect-b4.json) \
	--control 'cpu.first_touch,pages=thp' --format html >eff.html || fail "effect html"
page eff.html
! grep -q 'class="warn"' eff.html || fail "warning without a moved control"
# drift, missing, void, knobs: every verdict class renders
"$MEMPATH" compare "$d/cmp-aa-1.json" "$d/cmp-effect-b.json" "$d/cmp-drift-a2.json" --format html >drift.html
page drift.html
grep -q '<td class="v-unstable">UNSTABLE: stock again vs stock -1[0-9]\.[0-9]%' drift.html || fail "UNSTABLE cell"
"$MEMPATH" compare "$d/cmp-aa-1.json" "$d/cmp-missing-b.json" "$d/cmp-void-a2.json" --format html >miss.html
page miss.html
grep -q '<td class="v-void">VOID: probe ok in stock, fail in patched' miss.html || fail "VOID cell"
grep -q '<li>missing: cpu.first_touch random_after pages=4k,touch=write,streams=8 (absent in patched)</li>' miss.html ||
	fail "missing note"
"$MEMPATH" compare "$d/cmp-aa-1.json" "$d/cmp-knob-b.json" "$d/cmp-aa-3.json" --format html >knob.html
page knob.html
sed -n '/<h1>/{n;p;q}' knob.html | grep -q '^<p class="warn">knobs differ between legs - no verdict' || fail "knobs not first"
grep -q '<li>knob swappiness: stock=60, patched=60-&gt;10, stock again=60</li>' knob.html || fail "knob line"
grep -q '<td class="v-refused">no verdict: knobs differ</td>' knob.html || fail "refused cell"

# the facts (better=none, never judged) are folded below the verdicts, in a
# <details> that says how many; the verdict table holds none of them
"$MEMPATH" compare "$d/cmp-aa-1.json" "$d/cmp-effect-b.json" "$d/cmp-aa-3.json" --format html >fold.html || [ $? -eq 3 ] ||
	fail "compare html (facts)"
grep -q '^<details><summary>2 facts (better=none: recorded beside the figures, not judged)</summary>$' fold.html ||
	fail "the facts are not folded: $(grep -c v-fact fold.html) fact cells"
awk '/<details>/ { exit } /class="v-fact"/ { bad = 1 } END { exit bad }' fold.html ||
	fail "a fact row above the fold"
[ "$(sed -n '/<details>/,/<\/details>/p' fold.html | grep -c 'class="v-fact"')" -eq 2 ] || fail "the fold lacks the facts"
# a comparison file renders as compare printed it
"$MEMPATH" compare "$@" --format json -o c.json || [ $? -eq 3 ] || fail "compare json"
"$MEMPATH" report c.json --format html >got.html || fail "report of a comparison file"
cmp -s ctl.html got.html || fail "report html differs from compare html: $(diff ctl.html got.html)"
"$MEMPATH" report "$d/compare-effect.json" --format html >ce.html || fail "compare-effect.json"
page ce.html
grep -q '<td class="v-win">WIN</td>' ce.html || fail "committed comparison: WIN"
grep -q '<td class="v-nowin">~ (control)</td>' ce.html || fail "committed comparison: control"

# the other commands take html; unknown formats name it in the error
"$MEMPATH" probe cpu.first_touch size=16M --reps 2 --warmups 0 --format html -o p.json >p.html 2>p.err ||
	fail "probe --format html: $(cat p.err)"
page p.html
grep -q '<h2>cpu.first_touch <span class="st st-ok">ok</span>' p.html || fail "probe html: $(grep '<h2>' p.html)"
expect_fail 2 "$MEMPATH" report "$d/p2p-4gpu.json" --format xml
grep -q 'term, md, json, csv, html' err.txt || fail "report error does not list html: $(cat err.txt)"
expect_fail 2 "$MEMPATH" compare "$d/cmp-aa-1.json" "$d/cmp-aa-2.json" --format xml
grep -q 'term, md, json, csv, html' err.txt || fail "compare error does not list html: $(cat err.txt)"
"$MEMPATH" report --help | grep -q 'term|md|json|csv|html' || fail "report usage"
exit 0
