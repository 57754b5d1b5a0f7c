# reports: a real browser (headless chromium) loads the HTML pages of a run
# and of a comparison and draws them: every plot has a size, its lines and
# bars have extent, no text of a plot falls outside it (a clipped tick
# label), nothing is reported broken; and a screenshot is a picture of the
# page. Skips where no chromium is installed (apt-get install chromium).
. "$top/tests/cli/lib.sh"
browser=""
for b in chromium chromium-browser google-chrome; do
	command -v "$b" >/dev/null 2>&1 && browser=$b && break
done
[ -n "$browser" ] || skip "no chromium here to draw the pages (apt-get install chromium)"
r=$top/docs/results
chrome() { # chrome ARGS...: one headless run with a profile of its own
	rm -rf profile
	timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-background-networking \
		--disable-component-update --disable-sync --no-first-run --hide-scrollbars \
		--user-data-dir="$PWD/profile" "$@" 2>chrome.err
}
# The test's copy of a page gets a script at its end that measures what the
# browser laid out (the pages themselves run nothing) and writes it as text.
cat >measure.js <<'JS'
<script>
var out = [], svgs = document.querySelectorAll("svg");
out.push("svgs " + svgs.length);
svgs.forEach(function (s, i) {
  var b = s.getBoundingClientRect(), drawn = 0, outside = [], lines = 0;
  s.querySelectorAll("polyline,rect,circle,line,path").forEach(function (e) {
    var r = e.getBoundingClientRect();
    if (r.width > 0 || r.height > 0) drawn++;
  });
  s.querySelectorAll("text").forEach(function (t) {
    var r = t.getBoundingClientRect();
    if (r.width > 0 && (r.left < b.left - 1 || r.right > b.right + 1 ||
                        r.top < b.top - 1 || r.bottom > b.bottom + 1))
      outside.push(t.textContent);
  });
  s.querySelectorAll("polyline").forEach(function (p) {
    if (p.getBoundingClientRect().width > 100) lines++;
  });
  out.push("svg " + i + " w " + Math.round(b.width) + " h " + Math.round(b.height) +
           " drawn " + drawn + " lines " + lines + " outside [" + outside.join("|") + "]");
});
var pre = document.createElement("pre");
pre.id = "measured";
pre.textContent = out.join("\n");
document.body.appendChild(pre);
</script>
JS
measure() { # measure PAGE.html OUT.txt
	awk '$0 == "</body>" { while ((getline l < "measure.js") > 0) print l } { print }' "$1" >"m-$1"
	grep -q 'id = "measured"' "m-$1" || fail "the measuring script is not in the copy of $1"
	chrome --dump-dom "file://$PWD/m-$1" >"$2.dom" || fail "$browser could not load $1: $(tail -3 chrome.err)"
	sed -n '/<pre id="measured">/,/<\/pre>/p' "$2.dom" | sed 's/<[^>]*>//g' >"$2"
	grep -q '^svgs [1-9]' "$2" || fail "$1: the browser drew no plot: $(head -c 600 "$2.dom")"
}
"$MEMPATH" report "$r/vm-full-2026-11-30.json" --format html -o run.html || fail "report run"
"$MEMPATH" report "$r/ab-thp-2026-11-30/run4/compare.json" --format html -o cmp.html || fail "report compare"
measure run.html run.txt
measure cmp.html cmp.txt
for m in run.txt cmp.txt; do
	# every plot has a size and something drawn in it, no text outside it
	awk '/^svg / { if ($4 < 100 || $6 < 40 || $8 < 3) { print "empty: " $0; bad = 1 }
		if ($0 !~ /outside \[\]$/) { print "clipped: " $0; bad = 1 } }
		END { exit bad }' "$m" || fail "$m: $(cat "$m")"
done
# the latency and bandwidth plots are lines the browser laid out
[ "$(awk '/^svg / && $10 >= 4' run.txt | wc -l)" -ge 1 ] || fail "no plot with 4 drawn lines: $(cat run.txt)"
[ "$(grep -c '^svg ' cmp.txt)" -eq 1 ] || fail "the comparison should have one plot: $(cat cmp.txt)"
# a screenshot is a picture of the page: a PNG of the window's size, not blank
chrome --window-size=1000,1400 --screenshot="$PWD/run.png" "file://$PWD/run.html" ||
	fail "no screenshot: $(tail -3 chrome.err)"
[ "$(od -An -c -j1 -N3 run.png | tr -d ' ')" = PNG ] || fail "the screenshot is not a PNG"
w=$(od -An -tu1 -j16 -N4 run.png | awk '{ print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4 }')
[ "$w" -eq 1000 ] || fail "screenshot width $w, not 1000"
[ "$(wc -c <run.png)" -gt 50000 ] || fail "the screenshot is nearly blank: $(wc -c <run.png) bytes"
exit 0
