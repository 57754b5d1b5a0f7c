# reports: the pictures of docs/design.md §9.10-9.11 drawn by a real browser
# (headless chromium) from committed results: each page loads with nothing
# on the console, its DOM holds every <svg> of the file and none inside
# another (broken markup would nest them), no text falls outside its plot,
# the page is no wider than the window (the fleet's matrix scrolls inside
# its box instead); the quick run's latency curve, cpu.loaded's curve per
# mix and the wrap comparison's panels have the curves, bands and legend
# entries expected, laid out with extent; the threads panels sit side by
# side; a screenshot of cpu.loaded holds each mix's colour. tests/cli/t5209
# checks the markup without a browser. Skips where no chromium is installed
# (make deps CHROMIUM=1, or apt-get install chromium).
# test: long (started first where no earlier run's times order the pool: tests/run.sh)
. "$top/tests/cli/lib.sh"
browser=""
for b in chromium chromium-browser google-chrome; do
	command -v "$b" >/dev/null 2>&1 && browser=$b && break
done
[ -n "$browser" ] || skip "no chromium here to draw the pages (make deps CHROMIUM=1)"
command -v python3 >/dev/null 2>&1 || skip "no python3 here to read the screenshot"
r=$top/docs/results
chrome() { # chrome WIDTH ARGS...: one headless run with a profile of its own
	w=$1
	shift
	rm -rf profile
	timeout 60 "$browser" --headless --no-sandbox --disable-gpu --disable-background-networking \
		--disable-component-update --disable-sync --no-first-run --hide-scrollbars \
		--enable-logging=stderr --v=0 --window-size="$w,1200" --user-data-dir="$PWD/profile" \
		"$@" 2>chrome.err
}
# the pages run nothing: the test's copy gets a script that measures the
# layout and writes it as text
cat >measure.js <<'JS'
<script>
var out = [], svgs = document.querySelectorAll("svg"), nested = 0;
out.push("page " + document.documentElement.scrollWidth + " " + window.innerWidth);
svgs.forEach(function (s, i) {
  var b = s.getBoundingClientRect(), lines = 0, spreads = 0, outside = [];
  if (s.parentElement.closest("svg")) nested++;
  s.querySelectorAll("polyline").forEach(function (p) {
    if (p.getBoundingClientRect().width > 20) lines++;
  });
  s.querySelectorAll(".spread:not(.lg)").forEach(function (p) {
    var r = p.getBoundingClientRect();
    if (r.width > 0 && r.height > 0) spreads++;
  });
  s.querySelectorAll("text").forEach(function (t) {
    var r = t.getBoundingClientRect();
    if (r.width > 0 && (r.left < b.left - 1 || r.right > b.right + 1 ||
                        r.top < b.top - 1 || r.bottom > b.bottom + 1))
      outside.push(t.textContent);
  });
  out.push("svg\t" + s.querySelector("title").textContent + "\t" + Math.round(b.width) + "\t" +
           Math.round(b.top) + "\t" + lines + "\t" + spreads + "\t" +
           s.querySelectorAll("text.key").length + "\t" + outside.join("|"));
});
out.push("nested " + nested);
document.querySelectorAll(".tw").forEach(function (t) {
  out.push("tw " + t.scrollWidth + " " + t.clientWidth);
});
var pre = document.createElement("pre");
pre.id = "measured";
pre.textContent = out.join("\n");
document.body.appendChild(pre);
</script>
JS
measure() { # measure NAME WIDTH: NAME.html drawn, its layout in NAME.txt
	awk '$0 == "</body>" { while ((getline l < "measure.js") > 0) print l } { print }' "$1.html" >"m-$1.html"
	chrome "$2" --dump-dom "file://$PWD/m-$1.html" >"$1.dom" || fail "$browser could not load $1: $(tail -3 chrome.err)"
	! grep ':CONSOLE' chrome.err || fail "$1: the console has messages"
	sed -n '/<pre id="measured">/,/<\/pre>/p' "$1.dom" | sed 's/<[^>]*>//g' >"$1.txt"
	grep -q '^nested 0$' "$1.txt" || fail "$1: an <svg> inside another (broken markup): $(cat "$1.txt")"
	[ "$(grep -c '^svg	' "$1.txt")" -eq "$(grep -c '<svg ' "$1.html")" ] ||
		fail "$1: the browser has $(grep -c '^svg	' "$1.txt") plots of the file's $(grep -c '<svg ' "$1.html")"
	awk -F'\t' '/^svg\t/ && $8 != "" { print "clipped: " $0; bad = 1 } END { exit bad }' "$1.txt" ||
		fail "$1: text outside its plot"
	awk '/^page / && $2 > $3 { exit 1 }' "$1.txt" || fail "$1: wider than the window: $(grep '^page' "$1.txt")"
}
plot() { # plot NAME TITLE: the plot's row: title, width, top, lines, bands, legend entries
	awk -F'\t' -v t="$2" '$1 == "svg" && $2 == t' "$1.txt"
}
expect() { # expect NAME TITLE LINES BANDS KEYS
	row=$(plot "$1" "$2")
	[ -n "$row" ] || fail "$1: no plot '$2': $(cut -f2 "$1.txt" | tr '\n' ';')"
	echo "$row" | awk -F'\t' -v l="$3" -v b="$4" -v k="$5" '{ exit !($3 > 200 && $5 == l && $6 == b && $7 == k) }' ||
		fail "$1 '$2': width, top, lines, bands, legend entries: $(echo "$row" | cut -f3-7), expected $3 lines, $4 bands, $5 entries"
}
"$MEMPATH" report "$r/vm-quick-2026-11-30.json" --format html -o quick.html || fail "report quick"
"$MEMPATH" report "$r/refs-vm-2026-11-30/cpu-loaded-1.json" --format html -o loaded.html || fail "report loaded"
"$MEMPATH" report "$r/vm-full-2026-11-30.json" --format html -o full.html || fail "report full"
"$MEMPATH" report "$r/llama-h200x2-2026-11-30/thp/compare.json" --format html -o wcmp.html || fail "report compare"
"$MEMPATH" report "$r/h200x2-round3-2026-11-30/fleet.json" --format html -o fleet.html || fail "report fleet"
measure quick 1000
measure loaded 1000
measure full 1000
measure wcmp 1000
measure fleet 800
# the quick latency curve: 2 curves drawn (the local ones are one point),
# their 2 bands, 4 lines and the band in the legend
expect quick "load_latency against size" 2 2 5
expect loaded "loaded_latency against injected_bw" 3 3 4
expect wcmp "test=pp64" 3 0 3
expect wcmp "test=tg32" 3 0 3
# the threads panels: four, two side by side
n=$(grep -c '^svg	kernel=' full.txt)
[ "$n" -eq 4 ] || fail "threads: $n panels"
[ "$(plot full kernel=read | cut -f4)" = "$(plot full kernel=write | cut -f4)" ] ||
	fail "threads: the panels are not side by side: $(grep '^svg	kernel=' full.txt)"
# the fleet's matrix is wider than its box and scrolls inside it
awk '/^tw / && $2 > $3 { ok = 1 } END { exit !ok }' fleet.txt || fail "fleet: no table scrolls in its box: $(grep '^tw' fleet.txt)"
# a screenshot of cpu.loaded: each mix's colour is on the picture
chrome 1000 --screenshot="$PWD/loaded.png" "file://$PWD/loaded.html" || fail "no screenshot: $(tail -3 chrome.err)"
python3 - loaded.png <<'PY' || fail "the screenshot does not show the three curves"
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat = 8, b""
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
    elif kind == b"IDAT":
        idat += body
    pos += 12 + n
assert w == 1000 and depth == 8 and ctype in (2, 6), (w, depth, ctype)
bpp = 3 if ctype == 2 else 4
raw, stride, prev, counts = zlib.decompress(idat), w * bpp, bytearray(w * bpp), {}
want = {(0x00, 0x72, 0xb2): "mix=read", (0xd5, 0x5e, 0x00): "mix=r2w1", (0x00, 0x9e, 0x73): "mix=r1w1"}
for y in range(h):
    ft, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b, c = prev[i], prev[i - bpp] if i >= bpp else 0
        if ft == 1: line[i] = (line[i] + a) & 255
        elif ft == 2: line[i] = (line[i] + b) & 255
        elif ft == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif ft == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    for x in range(0, stride, bpp):
        px = tuple(line[x:x + 3])
        if px in want:
            counts[px] = counts.get(px, 0) + 1
    prev = line
missing = [v for k, v in want.items() if counts.get(k, 0) < 100]
assert not missing, "colours of %s hardly drawn: %s" % (missing, counts)
PY
exit 0
