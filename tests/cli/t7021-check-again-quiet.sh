# check --again-quiet S (docs/design.md §4.14): a results file of this
# machine whose cpu.first_touch ran beside other work (its noise meter reads
# 1.35 of 2 CPUs; the figure slowed to INCONCLUSIVE busy) is judged, then
# that probe alone waits for a quiet machine and runs again: with the looks
# reading busy throughout (MEMPATH_TEST_LOOKS stands in for the shared
# machine) it says so after S seconds, measures nothing and the figure stays
# INCONCLUSIVE; with a quiet look it measures cpu.first_touch again, the new
# run (-o) holds the new samples and every other probe as it was, and the
# planted load is gone from the judgment. FILE of another machine, or FILE
# without -o: one line, exit 2.
. "$top/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "no python3 here (it plants the fixtures)"
"$MEMPATH" sysinfo --json >host.json || fail "sysinfo --json: exit $?"
python3 - "$top/docs/results/vm-quick-2026-11-30.json" <<'EOS' || fail "planting"
import json, sys
r = json.load(open(sys.argv[1]))
r["host"] = json.load(open("host.json"))  # measured here
for p in r["probes"]:
    if p["name"] == "cpu.first_touch":
        for m in p["metrics"]:
            if m["name"] == "touch_rate":
                m["samples"] = [s / 2.5 for s in m["samples"]]
        p["noise"] = {"cpus": 2, "mean": {"other_cpus": 1.35, "steal_cpus": 0.0}}
json.dump(r, open("busy.json", "w"))
r["host"]["hostname"] = "elsewhere"
json.dump(r, open("other.json", "w"))
EOS
# this VM's kind: the file's probes are judged against its references
"$MEMPATH" check busy.json >first.txt 2>&1
grep -q '^INCONCLUSIVE  first touch, MADV_HUGEPAGE, write .*not judged$' first.txt ||
	skip "this machine is not of the development VM's kind, whose file is planted: $(head -n 1 first.txt)"
expect_fail 2 "$MEMPATH" check --again-quiet 5 busy.json
grep -q -- '-o OUT saves the run' err.txt || fail "FILE without -o: $(cat err.txt)"
expect_fail 2 "$MEMPATH" check --again-quiet 5 -o x.json other.json
grep -q 'was measured on elsewhere .*not on this machine' err.txt || fail "another machine: $(cat err.txt)"
[ -e x.json ] && fail "a refused --again-quiet wrote x.json"
# busy throughout: waits S seconds, measures nothing, the figure stays INCONCLUSIVE
MEMPATH_TEST_LOOKS=1.5 "$MEMPATH" check --again-quiet 2 -o still.json busy.json >still.txt 2>still.err
[ $? -eq 1 ] || fail "still busy: exit status, expected 1 (an INCONCLUSIVE); $(cat still.err)"
grep -q '^check: busy while they ran: cpu.first_touch; measuring again once the machine is quiet (at most 2 s)$' still.err ||
	fail "the busy probes are not named: $(cat still.err)"
grep -q '^check: still 1.50 other CPUs busy after [23] s: cpu.first_touch not measured again, their figures stay INCONCLUSIVE$' still.err ||
	fail "still busy: $(cat still.err)"
grep -q 'measured again;' still.err && fail "measured although busy: $(cat still.err)"
grep -q '^INCONCLUSIVE  first touch, MADV_HUGEPAGE, write' still.txt || fail "still busy: $(cat still.txt)"
cmp -s first.txt still.txt || fail "the judgment changed with nothing measured: $(diff first.txt still.txt)"
# quiet on the second look: cpu.first_touch measured again, the rest kept
MEMPATH_TEST_LOOKS=1.5,0.1 "$MEMPATH" check --again-quiet 60 -o new.json busy.json >new.txt 2>new.err
rc=$?
[ $rc -le 1 ] || fail "measured again: exit $rc; $(cat new.err)"
grep -q '^check: quiet (0.10 other CPUs) after [0-9]* s: measuring cpu.first_touch again$' new.err ||
	fail "the quiet look: $(cat new.err)"
grep -q '^check: cpu.first_touch measured again; saved in new.json$' new.err || fail "$(cat new.err)"
python3 - <<'EOS' || fail "new.json: the probe measured again, the rest as they were"
import json
old, new = json.load(open("busy.json")), json.load(open("new.json"))
po = {p["name"]: p for p in old["probes"]}
pn = {p["name"]: p for p in new["probes"]}
assert list(po) == list(pn), (list(po), list(pn))
for name in po:
    if name == "cpu.first_touch":
        assert pn[name]["metrics"] != po[name]["metrics"], "not measured again"
        assert pn[name].get("noise") != po[name]["noise"], "the planted load is still there"
    else:
        pn[name].pop("identity", None)  # written with every file
        assert pn[name] == po[name], name + " changed"
EOS
grep -q 'busy: 1.35 of 2 CPUs' new.txt && fail "the planted load still judges the figure: $(cat new.txt)"
exit 0
