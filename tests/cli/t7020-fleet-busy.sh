# fleet merge names busy nodes as busy, not slow (docs/design.md §4.14):
# five copies of a committed quick run as five hosts, node3's samples
# halved. Where node3's noise meter saw 1.35 of 2 CPUs used by other work,
# its flags say "busy, not slow" and it reads BUSY (the header counts it,
# the fleet file carries each flag's busy line); where it ran quiet, the
# same node is FLAGGED as before and names no load; a node ten times slower
# under the same load is FLAGGED with the load named.
. "$top/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "no python3 here (it plants the fixtures)"
src=$top/docs/results/vm-quick-2026-11-30.json
# plant(OUT, HOST, DIVISOR, OTHER_CPUS): every sample divided by DIVISOR and
# every probe's noise meter reading OTHER_CPUS others busy of 2 CPUs
plant() {
	python3 - "$src" "$@" <<'EOS' || fail "planting $1"
import json, sys
r = json.load(open(sys.argv[1]))
out, host, div, other = sys.argv[2], sys.argv[3], float(sys.argv[4]), float(sys.argv[5])
r["host"]["hostname"] = host
for p in r["probes"]:
    for m in p.get("metrics", []):
        m["samples"] = [s / div for s in m["samples"]]
        if "warmups" in m:
            m["warmups"] = [s / div for s in m["warmups"]]
    p["noise"] = {"cpus": 2, "mean": {"other_cpus": other, "steal_cpus": 0.0}}
json.dump(r, open(out, "w"))
EOS
}
for n in 1 2 4 5; do plant n$n.json node$n 1 0; done
plant busy.json node3 2 1.35
plant quiet.json node3 2 0
plant far.json node3 10 1.35
"$MEMPATH" fleet merge n1.json n2.json busy.json n4.json n5.json -o fleet.json >busy.txt 2>err.txt
rc=$?
[ $rc -le 1 ] || fail "fleet merge of the busy node: exit $rc; $(cat err.txt)"
grep -q '^BUSY     node3 (other work ran beside its probes: busy, not slow)$' busy.txt ||
	fail "node3 is not named busy: $(cat busy.txt)"
grep -q '^FLAGGED' busy.txt && fail "a busy node reads FLAGGED: $(grep FLAGGED busy.txt)"
grep -q '^mempath fleet: 5 nodes in 1 group, 1 flagged (1 of them busy, not slow)$' busy.txt ||
	fail "header: $(head -n 1 busy.txt)"
grep -q 'cpu.first_touch touch_rate pages=thp,touch=write: .*below the group median.*; busy: 1.35 of 2 CPUs used by other work while it ran (2.00x the group median, within the 2.5[0-9]x that load can explain): busy, not slow' busy.txt ||
	fail "the flag does not say busy: $(cat busy.txt)"
python3 - fleet.json <<'EOS' || fail "fleet.json: the flags' busy lines"
import json, sys
f = json.load(open(sys.argv[1]))
assert f["summary"]["busy"] == 1, f["summary"]
n3 = [n for n in f["nodes"] if n["name"] == "node3"][0]
assert n3["flags"] and all(fl["busy"].startswith("busy: 1.35 of 2 CPUs") for fl in n3["flags"]), n3["flags"]
EOS
# the file reads back the same: report prints what fleet printed
"$MEMPATH" report fleet.json >report.txt
cmp -s busy.txt report.txt || fail "report differs from fleet: $(diff busy.txt report.txt | head)"
"$MEMPATH" fleet merge n1.json n2.json quiet.json n4.json n5.json -o q.json >quiet.txt 2>&1
[ $? -eq 1 ] || fail "a quiet slow node: exit status, expected 1"
grep -q '^FLAGGED  node3$' quiet.txt || fail "the quiet slow node is not FLAGGED: $(cat quiet.txt)"
grep -q 'busy' quiet.txt && fail "a quiet fleet names a load: $(grep busy quiet.txt)"
"$MEMPATH" fleet merge n1.json n2.json far.json n4.json n5.json -o far.json.out >far.txt 2>&1
[ $? -eq 1 ] || fail "a node ten times slower under load: exit status, expected 1"
grep -q '^FLAGGED  node3$' far.txt || fail "ten times slower under load is not FLAGGED: $(cat far.txt)"
grep -q 'below the group median.*; busy: 1.35 of 2 CPUs used by other work while it ran, yet 10.00x the group median is beyond the 2.5[0-9]x that load can explain' far.txt ||
	fail "the far flag does not name the load: $(cat far.txt)"
exit 0
