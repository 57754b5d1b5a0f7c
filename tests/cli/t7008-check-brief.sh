# check: --brief, what make run prints after its run: a line a path judged
# against a reference (its status, value, reference) or not judged (the
# reason), then every other probe's headline figure and how steady it was;
# exit 1 where a path could not be judged; a terminal summary only.
# test: sanitizers (C paths the unit tests miss: tools/sanitize-pick.sh)
. "$top/tests/cli/lib.sh"
f=$top/docs/results/vm-quick-2026-11-30.json
"$MEMPATH" check --brief "$f" >out.txt 2>err.txt
rc=$?
[ $rc -eq 1 ] || fail "exit $rc, not 1 (two latency paths cannot be judged): $(cat err.txt)"
grep -q '^judged (mempath check): vm (AMD EPYC x2' out.txt || fail "no heading: $(head -2 out.txt)"
grep -q '^  PASS  *first touch, MADV_HUGEPAGE, write: 10.8 GiB/s, reference 10.8 GiB/s +-30%$' out.txt ||
	fail "no PASS line with value and reference: $(cat out.txt)"
grep -q "^  INCONCLUSIVE DRAM latency, 256 MiB, random, THP: cpu.latency's load_latency is labelled" out.txt ||
	fail "no INCONCLUSIVE line with its reason: $(cat out.txt)"
grep -q '^the other figures, by probe: what judged them (or why nothing did) and how steady its headline was:$' out.txt ||
	fail "no section of the other figures: $(cat out.txt)"
# the file's cpu.wake spread 18% (unsteady), work.decode 2.4% (steady); each
# probe's other figures are counted with why none judged them; a judged
# path is not among them (cpu.stream's read stream: 6 others of 7)
grep -q '^  cpu.wake: 2 figures, 2 INCONCLUSIVE (wake_latency: no reference of this kind for it, and no physical limit bounds a figure in ns); headline wake_latency mode=spin: 49.8 ns, CoV 18.2% over 10 samples (unsteady' out.txt ||
	fail "cpu.wake not flagged unsteady: $(cat out.txt)"
grep -q '^  work.decode: 4 figures, 4 INCONCLUSIVE (.*); headline tokens_per_s: 1547.0 tok/s, CoV 2.4% over 10 samples (steady)$' out.txt ||
	fail "work.decode not steady: $(cat out.txt)"
grep -q '^  cpu.stream: 6 figures, 6 INCONCLUSIVE (bandwidth: .*the dram limit is unknown: no DRAM facts in the fingerprint.* measured ceiling, not a limit' out.txt ||
	fail "cpu.stream's other figures: $(grep cpu.stream out.txt)"
[ "$(wc -l <out.txt)" -eq 15 ] || fail "not 15 lines: $(cat out.txt)"
"$MEMPATH" check --brief --format md "$f" >md.txt 2>&1
[ $? -eq 2 ] && grep -q -- '--brief is a terminal summary' md.txt || fail "--brief --format md: $(cat md.txt)"
exit 0
