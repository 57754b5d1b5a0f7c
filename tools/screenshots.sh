#!/bin/sh
# tools/screenshots.sh [MEMPATH] - the pictures in docs/img/, made from the
# committed results in docs/results/ with headless chromium: a run report, a
# comparison report, and single plots cut from their pages: the latency
# curve, cpu.loaded's latency against bandwidth, bandwidth against threads
# per kernel, a workload's tokens/s per iteration and cpu.loaded measured
# beside other work on the dev VM (README.md shows them).
set -eu
bin=${1:-build/mempath}
out=docs/img
r=docs/results
browser=""
for b in chromium chromium-browser google-chrome; do
	command -v "$b" >/dev/null 2>&1 && browser=$b && break
done
[ -n "$browser" ] || { echo "screenshots: no chromium (make deps CHROMIUM=1)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
shot() { # shot PAGE.html OUT.png WIDTH HEIGHT
	rm -rf "$tmp/profile"
	"$browser" --headless --no-sandbox --disable-gpu --disable-background-networking \
		--disable-component-update --disable-sync --no-first-run --hide-scrollbars \
		--user-data-dir="$tmp/profile" --window-size="$3,$4" --screenshot="$PWD/$2" \
		"file://$1" 2>/dev/null
}
cut_plot() { # cut_plot PAGE.html CAPTION OUT.html: the page's head and that one plot
	awk '/<body>/ { print; exit } { print }' "$1" >"$3"
	# from the caption to the end of its <svg>, or of its panels
	awk -v c="$2" 'index($0, c) { on = 1; panels = index($0, "one panel per") }
		on { print } on && !panels && /<\/svg>/ { exit } on && panels && /^<\/div>$/ { exit }' \
		"$1" >>"$3"
	grep -q '</svg>' "$3" || { echo "screenshots: no plot '$2' in $1" >&2; exit 1; }
	echo '</body></html>' >>"$3"
}
mkdir -p "$out"
"$bin" report $r/vm-full-2026-11-30.json --format html -o "$tmp/run.html"
"$bin" report $r/ab-thp-2026-11-30/run4/compare.json --format html -o "$tmp/cmp.html"
"$bin" report $r/h200x2-refs-2026-11-30/cpu-loaded-full.json --format html -o "$tmp/loaded.html"
"$bin" report $r/llama-h200x2-2026-11-30/thp/compare.json --format html -o "$tmp/wrap.html"
"$bin" report $r/cpu-loaded-vm-busy-2026-12-02.json --format html -o "$tmp/loaded-busy.html"
cut_plot "$tmp/run.html" '<p><b>load_latency against size</b>' "$tmp/curve.html"
cut_plot "$tmp/run.html" '<p><b>bandwidth against threads</b>' "$tmp/threads.html"
cut_plot "$tmp/loaded.html" '<p><b>loaded_latency against injected_bw</b>' "$tmp/loaded1.html"
cut_plot "$tmp/wrap.html" '<p><b>tokens_per_s per iteration</b>' "$tmp/iter.html"
# measured beside other work: the note above the plot and the caption say so
cut_plot "$tmp/loaded-busy.html" '<p class="busy"' "$tmp/loaded2.html"
shot "$tmp/run.html" "$out/run-report.png" 1000 1400
shot "$tmp/cmp.html" "$out/compare-report.png" 1000 1260
shot "$tmp/curve.html" "$out/latency-curve.png" 920 500
shot "$tmp/threads.html" "$out/threads-panels.png" 920 780
shot "$tmp/loaded1.html" "$out/loaded-latency.png" 920 480
shot "$tmp/iter.html" "$out/wrap-iterations.png" 920 360
shot "$tmp/loaded2.html" "$out/loaded-latency-busy.png" 920 560
shot "$tmp/wrap.html" "$out/compare-answer.png" 1000 900
# a history trend: the quick and full VM runs kept in a history of its own
MEMPATH_HISTORY=$tmp/h.db "$bin" history add $r/vm-quick-2026-11-30.json $r/vm-full-2026-11-30.json >/dev/null
MEMPATH_HISTORY=$tmp/h.db "$bin" history trend cpu.stream:bandwidth,kernel=read --format html >"$tmp/trend.html"
shot "$tmp/trend.html" "$out/history-trend.png" 1000 900
ls -l "$out"
