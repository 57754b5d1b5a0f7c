# doctor: the multi-size THP sizes that are off are an INFO finding naming
# them (from the fingerprint's knobs); doctor --measure prices one (first
# touch at 4k vs 64k folios, 64k enabled alone for the run) and every
# per-size setting reads after it as before.
# test: alone (it changes the per-size mTHP settings and reads them back)
. "$top/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 not installed (reads the doctor file)"
thp=/sys/kernel/mm/transparent_hugepage
[ -r $thp/hugepages-64kB/enabled ] || skip "no 64 KiB mTHP size here (a kernel before 6.8)"
snap() { grep -H . $thp/hugepages-*/enabled $thp/enabled 2>/dev/null; }
snap >before.txt
"$MEMPATH" doctor --format json -o d.json  # exit 1: a warning found
[ -s d.json ] || fail "doctor wrote no file"
python3 - <<'PY' || fail "the mthp_sizes finding is wrong"
import json, glob
(f,) = [x for x in json.load(open("d.json"))["findings"] if x["id"] == "mthp_sizes"]
off = [p.split("hugepages-")[1].split("kB")[0] for p in
       glob.glob("/sys/kernel/mm/transparent_hugepage/hugepages-*kB/enabled")
       if "[never]" in open(p).read()]
if off:
    assert f["level"] == "info" and ("%d of" % len(off)) in f["evidence"], (off, f)
else:
    assert f["level"] == "ok", f
PY
grep -q '"level": "info"' d.json || skip "no size is off here: nothing to measure"
[ "$(id -u)" = 0 ] || skip "not root: --measure cannot enable 64k alone"
grep -q '\[never\]' $thp/hugepages-64kB/enabled || skip "64k is on here: its price is not asked"
MEMPATH_KNOB_JOURNAL_DIR=$(pwd)/j "$MEMPATH" doctor --measure --format json -o m.json >m.txt 2>&1
[ -s m.json ] ||
	fail "doctor --measure failed: $(tail -n 3 m.txt)"
python3 - <<'PY' || fail "no price for the mTHP sizes"
import json
(f,) = [x for x in json.load(open("m.json"))["findings"] if x["id"] == "mthp_sizes"]
assert "measured" in f and "64 KiB folios" in json.dumps(f["measured"]), f
PY
snap >after.txt
cmp -s before.txt after.txt || fail "per-size settings changed: $(diff before.txt after.txt)"
