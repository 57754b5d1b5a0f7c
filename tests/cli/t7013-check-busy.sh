# check: a figure whose probe's noise meter saw other CPUs busy is judged
# with that load (docs/design.md §4.14): a slow figure the load can explain
# is INCONCLUSIVE "busy: X of N CPUs used by other work", one beyond it still FAILs with
# the load named, and the same slow figure measured quiet FAILs as before;
# --brief says the same.
. "$top/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "no python3 here (it plants the fixtures)"
f=$top/docs/results/vm-quick-2026-11-30.json
# plant(OUT, DIVISOR, OTHER_CPUS): cpu.first_touch's touch_rate divided by
# DIVISOR, and its noise meter reading OTHER_CPUS others busy of 2 CPUs
plant() {
	python3 - "$f" "$1" "$2" "$3" <<'EOS' || fail "planting $1"
import json, sys
r = json.load(open(sys.argv[1]))
for p in r["probes"]:
    if p["name"] == "cpu.first_touch":
        for m in p["metrics"]:
            if m["name"] == "touch_rate":
                m["samples"] = [s / float(sys.argv[3]) for s in m["samples"]]
        p["noise"] = {"cpus": 2, "mean": {"other_cpus": float(sys.argv[4]), "steal_cpus": 0.0}}
        break
json.dump(r, open(sys.argv[2], "w"))
EOS
}
plant busy.json 2.5 1.35
plant quiet.json 2.5 0.0
plant far.json 10 1.35
"$MEMPATH" check busy.json >busy.txt 2>err.txt
[ $? -eq 1 ] || fail "check of the busy file did not exit 1: $(cat err.txt)"
grep -q '^INCONCLUSIVE  first touch, MADV_HUGEPAGE, write (pages=thp,touch=write): 4.31 GiB/s, reference 10.8 GiB/s +-30% (-60.1%), not judged$' busy.txt ||
	fail "the busy slow figure is not INCONCLUSIVE: $(cat busy.txt)"
grep -q 'why: busy: 1.35 of 2 CPUs used by other work while it ran (2.51x the reference, within the 3.76x' busy.txt ||
	fail "the load is not named: $(cat busy.txt)"
grep -q '^FAIL' busy.txt && fail "a bare FAIL for a busy figure: $(cat busy.txt)"
# the other probes ran quiet: their PASS lines stand
grep -q '^PASS  DRAM read stream, 2 threads, THP' busy.txt || fail "the quiet PASS changed: $(cat busy.txt)"
"$MEMPATH" check quiet.json >quiet.txt 2>&1
[ $? -eq 1 ] || fail "check of the quiet file did not exit 1"
grep -q '^FAIL  first touch, MADV_HUGEPAGE, write (pages=thp,touch=write): 4.31 GiB/s, reference 10.8 GiB/s +-30% (-60.1%)$' quiet.txt ||
	fail "the quiet slow figure does not FAIL: $(cat quiet.txt)"
grep -q 'busy:' quiet.txt && fail "a quiet file names a load: $(cat quiet.txt)"
"$MEMPATH" check far.json >far.txt 2>&1
grep -q '^FAIL  first touch, MADV_HUGEPAGE, write (pages=thp,touch=write): 1.08 GiB/s' far.txt ||
	fail "a figure beyond what the load explains does not FAIL: $(cat far.txt)"
grep -q '^      load: busy: 1.35 of 2 CPUs used by other work while it ran, yet 10.03x the reference is beyond the 3.76x' far.txt ||
	fail "the FAIL does not name the load: $(cat far.txt)"
"$MEMPATH" check --brief busy.json >brief.txt 2>&1
grep -q '^  INCONCLUSIVE first touch, MADV_HUGEPAGE, write: busy: 1.35 of 2 CPUs used by other work' brief.txt ||
	fail "--brief does not say busy: $(cat brief.txt)"
grep -q '^  FAIL' brief.txt && fail "--brief shows a bare FAIL: $(cat brief.txt)"
exit 0
