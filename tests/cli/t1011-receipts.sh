# cpu: receipts (docs/design.md §4.18) - what a figure assumes, checked on
# its evidence: cpu.stream's DRAM receipt fails for arrays that fit in the
# last-level cache and says so in every report; compare gives the metric no
# verdict (the receipt rule, §5.12); check says INCONCLUSIVE for it; a
# first-touch figure's THP and 4 KiB receipts hold on the pages it got.
. "$top/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 not installed (reads the results file)"
llc=0
for d in /sys/devices/system/cpu/cpu0/cache/index*; do
	[ -r "$d/size" ] && llc=1
done
[ $llc -eq 1 ] || skip "no cache sizes in sysfs: the DRAM receipt cannot be checked here"
for leg in a b; do
	"$MEMPATH" probe cpu.stream threads=1 size=4M kernels=copy stores=temporal pages=4k \
		--reps 3 --warmups 0 --quiet -o $leg.json >$leg.txt 2>err.txt || fail "probe: $(cat err.txt)"
done
grep -q '^   receipt failed: bandwidth kernel=copy,threads=1,stores=temporal,pages=4k: working set 12 MiB is 0\.[0-9]*x the [0-9]* MiB LLC$' a.txt ||
	fail "no failed DRAM receipt in the table: $(tail -3 a.txt)"
"$MEMPATH" report a.json --format md | grep -q '^- receipt failed: bandwidth ' || fail "md lacks the receipt"
"$MEMPATH" report a.json --format html | grep -q '<p class="receipt">receipt failed: bandwidth ' ||
	fail "html lacks the receipt"
python3 - <<'PY' || fail "receipts in the results file"
import json
p = json.load(open("a.json"))["probes"][0]
r = {(m["name"], m["labels"]["pages"] if "pages" in m["labels"] else ""): m.get("receipts") for m in p["metrics"]}
bw = r[("bandwidth", "4k")]
assert [x["state"] for x in bw] == ["failed", "held"], bw
assert bw[1]["evidence"] == "thp_backed 0 MiB", bw
PY
"$MEMPATH" compare a.json b.json --format json -o c.json >/dev/null 2>err.txt
rc=$?
verdict_ok $rc c.json || fail "compare exit $rc: $(cat err.txt)"
python3 - <<'PY' || fail "compare: the receipt rule"
import json
rows = json.load(open("c.json"))["metrics"]
bw = [r for r in rows if r["metric"] == "bandwidth"]
assert bw and all(r["verdict"] == "void" and r["reason"].startswith("receipt failed in ") for r in bw), bw
PY
# check: INCONCLUSIVE for the metric, with the evidence
mkdir refs
cat >refs/here.json <<JSON
{"schema": "mempath/reference/1", "kind": "this machine", "about": "test",
 "match": {"cpus": $(nproc)},
 "run": [{"probe": "cpu.stream", "options": ["threads=1"]}],
 "values": [{"path": "DRAM copy", "means": "bytes copied", "probe": "cpu.stream",
   "metric": "bandwidth", "labels": {"kernel": "copy", "threads": "1", "stores": "temporal", "pages": "4k"}, "unit": "GB/s", "value": 10,
   "tolerance": 0.5, "source": "test", "date": "2026-12-01"}]}
JSON
MEMPATH_REFS=refs "$MEMPATH" check a.json >chk.txt 2>err.txt
rc=$?
# a path that could not be judged: INCONCLUSIVE, its reason the receipt's
# evidence, and check exits 1 (a path asked for was not judged)
[ $rc -eq 1 ] || fail "check exit $rc, not 1: $(cat err.txt)"
grep -q "^INCONCLUSIVE  DRAM copy" chk.txt || fail "check: $(cat chk.txt)"
grep -q 'receipt failed: .*working set 12 MiB' chk.txt || fail "check lacks the evidence: $(cat chk.txt)"
tail -n 1 chk.txt | grep -q ', 1 INCONCLUSIVE$' || fail "check counts: $(tail -n 1 chk.txt)"
# the pages a first touch got: THP (one fault per 2 MiB, in its windows) and 4 KiB
thp=$(sed -n 's/.*\[\(.*\)\].*/\1/p' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)
case $thp in always | madvise) ;; *) skip "THP is '$thp' here: the THP receipt not exercised" ;; esac
"$MEMPATH" probe cpu.first_touch size=16M pages=4k,thp touch=write --reps 2 --warmups 1 --quiet \
	-o ft.json >/dev/null 2>err.txt || fail "first touch: $(cat err.txt)"
python3 - <<'PY' || fail "first-touch receipts"
import json
p = json.load(open("ft.json"))["probes"][0]
for m in p["metrics"]:
    if m["name"] == "touch_rate":
        st = [(x["assumes"].split(":")[0], x["state"], x["evidence"]) for x in m["receipts"]]
        want = "THP" if m["labels"]["pages"] == "thp" else "4 KiB pages"
        assert len(st) == 1 and st[0][0] == want, st
        # held, or unknown where vmstat could not be read; never failed here
        assert st[0][1] in ("held", "unknown"), st
        if want == "THP" and st[0][1] == "held":
            assert "huge-page faults" in st[0][2], st
PY
exit 0
