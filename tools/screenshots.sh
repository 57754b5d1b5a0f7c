#!/bin/sh
# tools/screenshots.sh [MEMPATH] - the pictures in docs/img/, made from the
# committed results in docs/results/ with headless chromium: a run report,
# a comparison report and a latency curve (README.md shows them).
set -eu
bin=${1:-build/mempath}
out=docs/img
browser=""
for b in chromium chromium-browser google-chrome; do
	command -v "$b" >/dev/null 2>&1 && browser=$b && break
done
[ -n "$browser" ] || { echo "screenshots: no chromium (apt-get install chromium)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
shot() { # shot PAGE.html OUT.png WIDTH HEIGHT
	rm -rf "$tmp/profile"
	"$browser" --headless --no-sandbox --disable-gpu --disable-background-networking \
		--disable-component-update --disable-sync --no-first-run --hide-scrollbars \
		--user-data-dir="$tmp/profile" --window-size="$3,$4" --screenshot="$PWD/$2" \
		"file://$1" 2>/dev/null
}
mkdir -p "$out"
"$bin" report docs/results/vm-full-2026-11-30.json --format html -o "$tmp/run.html"
"$bin" report docs/results/ab-thp-2026-11-30/run4/compare.json --format html -o "$tmp/cmp.html"
# the latency curve alone: the page's head (its style) and that one plot
awk '/<body>/ { print; exit } { print }' "$tmp/run.html" >"$tmp/curve.html"
awk '/<p><b>load_latency against size<\/b>/ { on = 1 } on { print } on && /<\/svg>/ { exit }' \
	"$tmp/run.html" >>"$tmp/curve.html"
echo '</body></html>' >>"$tmp/curve.html"
shot "$tmp/run.html" "$out/run-report.png" 1000 1400
shot "$tmp/cmp.html" "$out/compare-report.png" 1000 1260
shot "$tmp/curve.html" "$out/latency-curve.png" 920 470
ls -l "$out"
