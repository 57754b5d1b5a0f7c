# reports: the pictures of docs/design.md §9.10-9.11 on committed results,
# checked in the page's markup (tests/cli/t5211 draws them in a browser):
# the quick run's latency curve with its p5-p95 bands; cpu.loaded and
# gpu.loaded as latency against the achieved bandwidth, a curve per mix, in
# place of their bars; thp_saving a curve against size; bandwidth against
# threads one panel per kernel; work.decode's tokens/s per iteration and no
# chart of all-zero counters; a wrap file's and a wrap comparison's tokens/s
# per configuration and per iteration; "no verdict" dots hollow with their
# own legend entry; wide tables in a scrolling box; label text escaped in
# every new plot.
# test: sanitizers (C paths the unit tests miss: tools/sanitize-pick.sh)
. "$top/tests/cli/lib.sh"
r=$top/docs/results
d=$top/tests/data
svg_of() { # svg_of FILE CAPTION: the <svg> element after the caption's paragraph
	awk -v c="$2" 'index($0, c) { on = 1 } on && /<svg / { in_svg = 1 }
		in_svg { print } in_svg && /<\/svg>/ { exit }' "$1"
}
count() { grep -c "$1" "$2" || true; }
# the quick run: load_latency against size, 4 lines (pages x order), bands
"$MEMPATH" report "$r/vm-quick-2026-11-30.json" --format html -o quick.html || fail "report quick"
svg_of quick.html '<b>load_latency against size</b>' >qlat.svg
[ "$(count '<polyline class="ln"' qlat.svg)" -eq 4 ] || fail "quick latency: not 4 lines: $(count '<polyline' qlat.svg)"
[ "$(count '<polygon class="spread"' qlat.svg)" -eq 2 ] ||
	fail "quick latency: the two random-order curves have no p5-p95 band: $(count spread qlat.svg)"
grep -q '>16K</text>' qlat.svg && grep -q '>256M</text>' qlat.svg || fail "quick latency: no size axis"
grep -q '>p5-p95 of the samples</text>' qlat.svg || fail "quick latency: the band has no legend entry"
grep -q '<b>thp_saving against size</b>' quick.html || fail "quick: thp_saving is not a curve against size"
! grep -q '<b>load_latency</b> per label set' quick.html || fail "quick: latency still drawn as bars"
# work.decode: tokens/s per iteration (10 samples), not four all-zero counters
svg_of quick.html '<b>tokens_per_s per iteration</b>' >dec.svg
[ -s dec.svg ] || fail "work.decode: no tokens/s per iteration"
[ "$(grep -o '<circle cx' dec.svg | wc -l)" -eq 10 ] || fail "work.decode: not 10 iterations drawn"
grep -q '<p><b>vmstat</b>: every sample 0 (not drawn)</p>' quick.html &&
	! grep -q '<b>vmstat</b> per label set' quick.html || fail "work.decode: all-zero vmstat bars drawn"
# cpu.loaded: MLC's curve, one per mix, the idle latency as a level
"$MEMPATH" report "$r/refs-vm-2026-11-30/cpu-loaded-1.json" --format html -o loaded.html || fail "report loaded"
svg_of loaded.html '<b>loaded_latency against injected_bw</b>' >ld.svg
[ "$(count '<polyline class="ln"' ld.svg)" -eq 3 ] || fail "cpu.loaded: not 3 curves: $(count '<polyline' ld.svg)"
[ "$(count '<polygon class="spread"' ld.svg)" -eq 3 ] || fail "cpu.loaded: not 3 bands"
for k in mix=read mix=r2w1 mix=r1w1 'p5-p95 of the samples'; do
	grep -q "class=\"key\"[^>]*>$k</text>" ld.svg || fail "cpu.loaded: no legend entry $k"
done
grep -q '>no load: 740.1 ns</text>' ld.svg || fail "cpu.loaded: the idle latency is not marked: $(grep -o 'no load[^<]*' ld.svg)"
! grep -q '<b>loaded_latency</b> per label set\|<b>injected_bw</b> per label set' loaded.html ||
	fail "cpu.loaded: its bars are still drawn"
# gpu.loaded: one curve of 6 points, the unloaded point at 0 GB/s
"$MEMPATH" report "$r/h200x2-round2-2026-11-30/gpu0.json" --format html -o gpu.html || fail "report gpu0"
svg_of gpu.html '<b>hbm_loaded_latency against hbm_load_bw</b>' >gld.svg
[ "$(count '<polyline class="ln"' gld.svg)" -eq 1 ] && [ "$(grep -o '<circle cx' gld.svg | wc -l)" -eq 6 ] ||
	fail "gpu.loaded: not one curve of 6 points"
grep -q ': 0 → 341.2' gld.svg || fail "gpu.loaded: no point at 0 GB/s"
# threads: one panel per kernel, one style per stores x pages in every panel
"$MEMPATH" report "$r/vm-full-2026-11-30.json" --format html -o full.html || fail "report full"
grep -q '<b>bandwidth against threads</b>, one panel per kernel (one scale' full.html ||
	fail "threads: not small multiples"
awk '/<div class="panels">/ { on = 1 } on && /<svg / { n++ } on && /^<\/div>$/ { exit } END { print n }' full.html >panels.txt
[ "$(cat panels.txt)" -eq 4 ] || fail "threads: $(cat panels.txt) panels, expected 4 kernels"
for k in read write copy triad; do
	grep -q "text-anchor=\"middle\">kernel=$k</text>" full.html || fail "threads: no panel kernel=$k"
done
! grep -q 'class="key"[^>]*>kernel=' full.html || fail "threads: a panel's legend repeats the kernel"
# a wrap file: tokens/s per configuration (bars with whiskers) and per iteration per test
"$MEMPATH" report "$r/llama-h200x2-2026-11-30/wrap-split.json" --format html -o wrap.html || fail "report wrap"
svg_of wrap.html '<b>tokens_per_s</b> per label set' >wbars.svg
[ "$(count '<rect class="bar"' wbars.svg)" -eq 4 ] || fail "wrap: not 4 configurations"
[ "$(count '<line class="wh"' wbars.svg)" -ge 12 ] || fail "wrap: the bars have no whiskers"
grep -q '<b>tokens_per_s per iteration</b>, one panel per test' wrap.html || fail "wrap: no per-iteration panels"
grep -q '>test=pp512</text>' wrap.html && grep -q '>test=tg128</text>' wrap.html || fail "wrap: no panel per test"
# a comparison of wrap legs: a line per leg in each test's panel
"$MEMPATH" report "$r/llama-h200x2-2026-11-30/thp/compare.json" --format html -o wcmp.html || fail "report wrap compare"
grep -q '<h2>The workload per leg, in pictures</h2>' wcmp.html || fail "wrap compare: no pictures"
for l in madvise always 'madvise again'; do
	[ "$(grep -c "class=\"key\"[^>]*>leg=$l</text>" wcmp.html)" -eq 2 ] || fail "wrap compare: leg $l not in both panels"
done
# verdicts: "no verdict" (knobs differ) hollow, named in the legend apart from ~
"$MEMPATH" compare --legs ABA "$d/cmp-aa-1.json" "$d/cmp-knob-b.json" "$d/cmp-aa-3.json" --format html >ref.html
[ $? -eq 3 ] || fail "a refused comparison should exit 3"
grep -q '<circle class="v-refused"' ref.html && grep -q '<circle class="lg v-refused"' ref.html &&
	grep -q 'class="key"[^>]*>no verdict</text>' ref.html || fail "no verdict has no dot or legend entry of its own"
grep -q 'circle.v-refused{fill:#fff' ref.html || fail "no verdict dots are not hollow"
# the fleet's node matrix scrolls inside its box
"$MEMPATH" report "$r/h200x2-round3-2026-11-30/fleet.json" --format html -o fleet.html || fail "report fleet"
grep -q '<div class="tw"><table>' fleet.html && grep -q '\.tw{overflow-x:auto' fleet.html || fail "fleet: tables not in a scrolling box"
# label text in the new plots stays text
python3 - "$r/refs-vm-2026-11-30/cpu-loaded-1.json" "$r/llama-h200x2-2026-11-30/wrap-split.json" <<'PY' || fail "fixtures"
import json, sys
bad = "<img src=x onerror=y>"
j = json.load(open(sys.argv[1]))
for m in j["probes"][0]["metrics"]:
    if m["labels"].get("mix") == "read":
        m["labels"]["mix"] = bad
json.dump(j, open("bad-loaded.json", "w"))
j = json.load(open(sys.argv[2]))
for m in j["probes"][0]["metrics"]:
    if m["labels"].get("test") == "tg128":
        m["labels"]["test"] = bad
json.dump(j, open("bad-wrap.json", "w"))
PY
for f in bad-loaded bad-wrap; do
	"$MEMPATH" report "$f.json" --format html -o "$f.html" || fail "report $f"
	grep -q '&lt;img src=x' "$f.html" || fail "$f: the label is not on the page"
	! grep -q '<img' "$f.html" || fail "$f: raw HTML: $(grep -m1 -o '.\{40\}<img.\{20\}' "$f.html")"
done
grep -q '<b>loaded_latency against injected_bw</b>' bad-loaded.html || fail "the loaded curve needs no particular mix name"
exit 0
