# doctor: the known traps of this machine or of a recorded fingerprint, with
# evidence and fix; exit 1 on a warning, 0 without, 2 on bad input. The
# fixtures tests/data/doctor-traps.json (a two-node box with docs/design.md §10.5's idle
# states, 55 GiB in no meminfo counter, a x8 GPU link ...) and doctor-clean.json
# hold every trap and none. (The mTHP sizes' finding and price: here, since
# 2026-12-07; t1022 ran the same doctor --measure apart.)
# test: alone (doctor --measure prices the mTHP sizes that are off by enabling one for its run)
. "$top/tests/cli/lib.sh"
d=$top/tests/data

# this machine: runs, and every rule gives one finding
"$MEMPATH" doctor --format json -o here.json
rc=$?
[ $rc -eq 0 ] || [ $rc -eq 1 ] || fail "doctor on this machine exited $rc"
grep -q '"schema": "mempath/doctor/1"' here.json || fail "doctor json schema: $(head -3 here.json)"
ids=$(grep -c '"id":' here.json)
sum=$(awk '/"counts"/ { on = 1; next } on && /}/ { on = 0 } on { gsub(/[^0-9]/, ""); s += $0 } END { print s }' here.json)
[ "$ids" -ge 10 ] && [ "$ids" -eq "$sum" ] || fail "$ids findings but counts add to $sum"
warns=$(grep -c '"level": "warn"' here.json)
{ [ "$warns" -gt 0 ] && [ $rc -eq 1 ]; } || { [ "$warns" -eq 0 ] && [ $rc -eq 0 ]; } ||
	fail "exit $rc with $warns warnings"
"$MEMPATH" doctor >here.txt
tail -1 here.txt | grep -Eq '^[0-9]+ warn, [0-9]+ info, [0-9]+ ok, [0-9]+ n/a, [0-9]+ unknown$' ||
	fail "summary line: $(tail -1 here.txt)"

# its own JSON reads back with the same findings
"$MEMPATH" doctor --from here.json --format json -o again.json
grep -E '"(id|level)":' here.json >a.txt
grep -E '"(id|level)":' again.json >b.txt
cmp -s a.txt b.txt || fail "doctor --from its own json differs: $(diff a.txt b.txt)"
# and so does a bare fingerprint
"$MEMPATH" sysinfo --json >fp.json
"$MEMPATH" doctor --from fp.json >/dev/null
[ $? -le 1 ] || fail "doctor --from sysinfo --json output"

# every trap: exit 1, warnings first, evidence and fix printed
"$MEMPATH" doctor --from "$d/doctor-traps.json" >traps.txt
[ $? -eq 1 ] || fail "traps fixture should exit 1"
tail -1 traps.txt | grep -qx '14 warn, 5 info, 1 ok, 1 n/a, 0 unknown' || fail "traps: $(tail -1 traps.txt)"
for id in thp_mode deep_idle cpufreq zone_reclaim unaccounted_memory gpu_persistence gpu_pcie busy \
	iommu_mode acs_redirect bar1 peer_access virt; do
	grep -Eq "^WARN +$id " traps.txt || fail "no WARN for $id: $(cat traps.txt)"
done
grep -q '55.00 GiB of 120.0 GiB RAM' traps.txt || fail "unaccounted evidence"
grep -q 'LPI-3 433 us' traps.txt || fail "idle evidence"
first=$(grep -nE '^(WARN|INFO|ok|n/a|unknown) ' traps.txt | head -1)
case $first in *WARN*) ;; *) fail "warnings are not first: $first" ;; esac
"$MEMPATH" doctor --from "$d/doctor-traps.json" --format md >traps.md
grep -q '^| \*\*WARN\*\* | deep_idle | cpu0 idle states enabled' traps.md || fail "md row: $(cat traps.md)"

# no trap: exit 0
"$MEMPATH" doctor --from "$d/doctor-clean.json" >clean.txt || fail "clean fixture should exit 0"
tail -1 clean.txt | grep -qx '0 warn, 0 info, 18 ok, 3 n/a, 0 unknown' || fail "clean: $(tail -1 clean.txt)"

# a results file whose fingerprint lacks the facts: unknown, never guessed
"$MEMPATH" doctor --from "$d/cmp-aa-1.json" >old.txt
grep -Eq '^unknown +unaccounted_memory ' old.txt || fail "missing counters not unknown: $(cat old.txt)"
grep -Eq '^unknown +thp_mode ' old.txt || fail "missing THP knob not unknown"

# --measure: the probes that price this machine's warnings run (quick sizes);
# a measured finding says so, the others do not, and the run's samples are kept.
# The multi-size THP sizes that are off are an INFO finding naming them (from
# the fingerprint's knobs); --measure prices one (first touch at 4k vs 64k
# folios, 64k enabled alone for the run) and every per-size setting reads
# after it as before.
thp=/sys/kernel/mm/transparent_hugepage
snap() { grep -H . $thp/hugepages-*/enabled $thp/enabled 2>/dev/null; }
snap >before.txt
if command -v python3 >/dev/null 2>&1; then
	python3 - <<'PY' || fail "the mthp_sizes finding is wrong"
import json, glob
(f,) = [x for x in json.load(open("here.json"))["findings"] if x["id"] == "mthp_sizes"]
off = [p.split("hugepages-")[1].split("kB")[0] for p in
       glob.glob("/sys/kernel/mm/transparent_hugepage/hugepages-*kB/enabled")
       if "[never]" in open(p).read()]
if glob.glob("/sys/kernel/mm/transparent_hugepage/hugepages-*kB/enabled"):
    if off:
        assert f["level"] == "info" and ("%d of" % len(off)) in f["evidence"], (off, f)
    else:
        assert f["level"] == "ok", f
PY
fi
price_64k=0
[ "$(id -u)" = 0 ] && grep -qs '\[never\]' $thp/hugepages-64kB/enabled && price_64k=1
MEMPATH_KNOB_JOURNAL_DIR=$(pwd)/j "$MEMPATH" doctor --measure --format json -o m.json 2>m.err
rc=$?
[ $rc -le 1 ] || fail "doctor --measure exited $rc: $(cat m.err)"
awk '/"id":/ { id = $2 } /"level":/ { lv = $2 } /"measured":/ { print id, lv }' m.json >measured.txt
while read -r id lv; do
	case "$id $lv" in
	'"thp_mode", "warn",' | '"thp_mode", "info",' | '"deep_idle", "warn",' | '"deep_idle", "info",' | '"mthp_sizes", "info",') ;;
	*) fail "measured a finding that has no cost measurement: $id $lv" ;;
	esac
done <measured.txt
if grep -q '"enabled=madvise' m.json; then
	grep -q '"measured": "first touch of memory that does not ask vs MADV_HUGEPAGE memory: [0-9.e+]* vs [0-9.e+]* GiB/s, [0-9.]*x' m.json ||
		fail "THP madvise here but no measured first-touch cost: $(grep -A8 thp_mode m.json)"
	grep -q '"schema": "mempath/run/1"' m.json || fail "the measuring run is not kept"
fi
if [ $price_64k = 1 ] && command -v python3 >/dev/null 2>&1; then
	python3 - <<'PY' || fail "no price for the mTHP sizes"
import json
(f,) = [x for x in json.load(open("m.json"))["findings"] if x["id"] == "mthp_sizes"]
assert "measured" in f and "64 KiB folios" in json.dumps(f["measured"]), f
PY
else
	echo "the mTHP price not asked: not root, no 64 KiB size, or 64k on here"
fi
snap >after.txt
cmp -s before.txt after.txt || fail "per-size settings changed: $(diff before.txt after.txt)"
expect_fail 2 "$MEMPATH" doctor --measure --from "$d/doctor-traps.json"

# a results report names the warnings of its machine in its header
for fp in traps clean; do
	{ printf ' "host": '; cat "$d/doctor-$fp.json"; printf ',\n'; } >host-$fp.txt
	sed -e "/^ \"host\": /{r host-$fp.txt" -e 'd}' "$d/cmp-aa-1.json" >run-$fp.json
	"$MEMPATH" doctor --from run-$fp.json >/dev/null
	[ $? -eq "$([ $fp = traps ] && echo 1 || echo 0)" ] || fail "run-$fp.json: wrong doctor exit"
done
"$MEMPATH" report run-traps.json --format md >rt.md || fail "report md"
[ "$(grep -c '^- trap (doctor): ' rt.md)" -eq 14 ] || fail "md trap lines: $(grep trap rt.md)"
grep -q '^- trap (doctor): deep_idle: cpu0 idle states enabled with exit latency up to 433 us' rt.md ||
	fail "md deep_idle line"
"$MEMPATH" report run-traps.json >rt.txt || fail "report term"
grep -q '^trap (doctor): unaccounted_memory: 55.00 GiB of 120.0 GiB RAM' rt.txt || fail "term trap line"
"$MEMPATH" report run-traps.json --format html >rt.html || fail "report html"
[ "$(grep -c '^<li>trap (doctor): ' rt.html)" -eq 14 ] || fail "html trap items"
"$MEMPATH" report run-clean.json --format md >rc.md || fail "report md clean"
grep -q 'trap (doctor)' rc.md && fail "a clean machine shows traps: $(grep trap rc.md)"

# bad input: one line, exit 2, nothing written
expect_fail 2 "$MEMPATH" doctor --from nosuch.json
expect_fail 2 "$MEMPATH" doctor --from "$d/corrupt-truncated.json"
expect_fail 2 "$MEMPATH" doctor --from "$d/llama-bench.json"
expect_fail 2 "$MEMPATH" doctor --format csv
expect_fail 2 "$MEMPATH" doctor extra
expect_fail 2 "$MEMPATH" doctor --from "$d/doctor-clean.json" -o nosuchdir/x.json
exit 0
