# reports: the plots of the HTML pages, on committed results: latency against
# the working set as lines on a log2 axis with the knee and plateaus the probe
# found (cpu.latency, gpu.latency), bandwidth against threads as lines, bars
# on a log scale when one is over 20 times another and on a cut scale when
# zero rules a log scale out, P2P matrices as heatmaps, and the comparison on
# a ratio axis symmetric around x1 with a legend and arrows for what lies
# beyond it. tests/cli/t5210 draws them in a browser.
# test: sanitizers (C paths the unit tests miss: tools/sanitize-pick.sh)
. "$top/tests/cli/lib.sh"
d=$top/tests/data
r=$top/docs/results
svg_of() { # svg_of FILE CAPTION: the <svg> element after the caption's paragraph
	awk -v c="$2" 'index($0, c) { on = 1 } on && /<svg / { in_svg = 1 }
		in_svg { print } in_svg && /<\/svg>/ { exit }' "$1"
}
"$MEMPATH" report "$r/vm-full-2026-11-30.json" --format html >vm.html || fail "report vm-full"
svg_of vm.html '<b>load_latency against size</b>' >lat.svg
[ -s lat.svg ] || fail "cpu.latency's load_latency is not a line plot: $(grep -o '<p><b>load_latency[^<]*</b>[^<]*' vm.html)"
[ "$(grep -c '<polyline class="ln"' lat.svg)" -eq 4 ] ||
	fail "expected 4 lines (pages x order): $(grep -c '<polyline' lat.svg)"
grep -q '>knee 3M (4k)</text>' lat.svg && grep -q '>knee 2M (thp)</text>' lat.svg ||
	fail "the knees cpu.latency found are not marked: $(grep -o 'knee[^<]*' lat.svg)"
[ "$(grep -c '<line class="plateau"' lat.svg)" -ge 10 ] || fail "plateaus not marked"
grep -q '>4K</text>' lat.svg && grep -q '>1G</text>' lat.svg || fail "the size axis is not in sizes"
grep -q '<p><b>load_latency against size</b> (log scale;' vm.html || fail "latency not on a log scale"
grep -q '<p><b>bandwidth against threads</b>' vm.html || fail "cpu.stream bandwidth is not lines against threads"
# touch_rate: the THP zero-page read (~750 GiB/s) is over 20 times the rest
grep -q '<p><b>touch_rate</b> per label set (GiB/s; median, whiskers p5-p95; log scale' vm.html ||
	fail "touch_rate bars not on a log scale: $(grep -o '<p><b>touch_rate</b>[^<]*' vm.html)"
# gpu.latency: L1, L2 and HBM levels and the last cache level's knee
"$MEMPATH" report "$r/h200-2026-11-30.json" --format html >h200.html || fail "report h200"
svg_of h200.html '<b>latency against size</b>' >glat.svg
for level in L1 L2 HBM; do
	grep -q ">$level [0-9.]* ns</text>" glat.svg || fail "gpu.latency: no $level level marked"
done
grep -q '>knee [0-9]*[KMG] (last cache level, from this curve)</text>' glat.svg ||
	fail "gpu.latency: no knee: $(grep -o 'knee[^<]*' glat.svg)"
# a cut scale: zero rules out a log scale, one bar is 200 times the next
cat >cut.json <<'JSON'
{"schema": "mempath/run/1", "label": "cut", "host": {"hostname": "fixture"},
 "probes": [{"name": "x.bars", "status": "ok", "params": {}, "metrics": [
  {"name": "rate", "unit": "GB/s", "better": "higher", "labels": {"k": "zero"}, "samples": [0, 0, 0]},
  {"name": "rate", "unit": "GB/s", "better": "higher", "labels": {"k": "two"}, "samples": [2, 2, 2]},
  {"name": "rate", "unit": "GB/s", "better": "higher", "labels": {"k": "big"}, "samples": [400, 400, 400]}]}]}
JSON
"$MEMPATH" report cut.json --format html >cut.html || fail "report cut.json"
grep -q 'the scale is cut: longer bars run off it' cut.html || fail "no cut scale: $(grep -o '<p><b>rate[^<]*</b>[^<]*' cut.html)"
[ "$(grep -c '<line class="cut"' cut.html)" -eq 2 ] || fail "the long bar has no break mark"
grep -q 'text-anchor="start">400.0</text>' cut.html || fail "the cut bar's value is not written"
# heatmaps: one square per cell, a colour bar
"$MEMPATH" report "$d/p2p-4gpu.json" --format html >p4.html || fail "report p2p"
[ "$(grep -c '<rect class="cell"' p4.html)" -eq 48 ] ||
	fail "expected 3 heatmaps of 16 squares: $(grep -c '<rect class="cell"' p4.html)"
grep -q '<title>0 → 1: ' p4.html || fail "heatmap squares have no hover text"
# the comparison: a ratio axis x0.5 .. x2, a legend, arrows beyond it
"$MEMPATH" report "$r/ab-thp-2026-11-30/run4/compare.json" --format html >cmp.html || fail "report compare"
for t in '×0.5' '×1' '×2'; do
	grep -q "<text [^>]*>$t</text>" cmp.html || fail "ratio axis: no $t tick"
done
! grep -q '<text [^>]*>×10</text>' cmp.html || fail "one x4.3 change widened the axis to x10"
grep -q '>×4.29</text>' cmp.html && grep -q '>×0.00195</text>' cmp.html ||
	fail "changes beyond the axis are not written at its edge: $(grep -o 'beyond[^<]*<' cmp.html)"
[ "$(grep -c '<path class="arrow"' cmp.html)" -ge 3 ] || fail "no arrows"
for t in WIN LOSS '~' UNSTABLE 'practical threshold' '95% CI' 'beyond the axis'; do
	grep -q "<text [^>]*>$t</text>" cmp.html || fail "legend: no '$t'"
done
# every change within x2: the default axis, no arrow
"$MEMPATH" compare "$d/cmp-aa-1.json" "$d/cmp-effect-b.json" "$d/cmp-aa-3.json" --format html >eff.html ||
	fail "compare html"
grep -q '<text [^>]*>×2</text>' eff.html && ! grep -q '<path class="arrow"' eff.html ||
	fail "+20% changes should sit on the x0.5..x2 axis without arrows"
exit 0
