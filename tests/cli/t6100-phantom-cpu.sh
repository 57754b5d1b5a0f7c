# phantom: the built-in CPU child (mapped, touched, held, exit) must give its
# memory back: PASS, exit 0, a results file with the levels and the verdict.
# The shape of the output is checked on every run; PASS and the memory seen
# used, which read the whole machine, on a run during which other processes
# moved memory by at most 96 MiB (mem_quiet, lib.sh), else skipped with the
# amounts seen after three runs.
# test: alone (reads what the whole machine's memory does: tests/run.sh)
# test: sanitizers (C paths the unit tests miss: tools/sanitize-pick.sh)
. "$top/tests/cli/lib.sh"
touch_512() {
	"$MEMPATH" phantom --cpu 512M --hold 0.2 --settle 5 -o p.json >p.txt 2>p.err
}
shape() {
	grep -q '^result: \(PASS\|FAIL\)$' p.txt || fail "no verdict (exit $MEM_RC): $(cat p.txt p.err)"
	grep -q '^MemAvailable+per-CPU lists ' p.txt || fail "checked level row missing"
	grep -q '^per-CPU lists (zoneinfo) ' p.txt || fail "per-CPU lists row missing"
	grep -q 'returned to within 0.250 GiB ' p.txt || fail "return time: $(cat p.txt)"
	"$MEMPATH" report p.json --format csv >p.csv || fail "results file rejected"
	grep -q '^work.phantom,[a-z]*,missing,,GiB,lower,1,' p.csv || fail "missing metric"
	grep -q '"tolerance": "256M"' p.json || fail "default tolerance not 256M"
}
if ! mem_quiet 96 touch_512; then
	shape
	skip "other processes moved the machine's memory by$MEM_SEEN MiB in three runs (PASS needs at most 96): too busy to judge"
fi
shape
[ $MEM_RC -eq 0 ] || fail "phantom exited $MEM_RC: $(cat p.txt p.err)"
grep -q '^result: PASS$' p.txt || fail "not PASS: $(cat p.txt)"
grep -q '^returned to within 0.250 GiB ' p.txt || fail "return time: $(cat p.txt)"
grep -q '^1  *cpu 512M  .* PASS$' p.txt || fail "acceptance row: $(cat p.txt)"
grep -q 'phantom: exit 0 after .*; 0.[4-9][0-9]* GiB used' p.err || fail "used memory not seen: $(cat p.err)"
awk -F, 'NR == 2 { exit !($1 == "work.phantom" && $2 == "ok") }' p.csv || fail "status: $(cat p.csv)"
grep -q '^work.phantom,ok,used,,GiB,none,1,0.[4-9]' p.csv || fail "used metric: $(grep used p.csv)"
grep -q '"verdict": "PASS"' p.json || fail "verdict param"
# Markdown: the seed-000-style acceptance row.
md() {
	"$MEMPATH" phantom --cpu 256M --hold 0 --settle 5 --format md -q -o m.json >m.md 2>&1
}
if ! mem_quiet 96 md; then
	grep -q '^| 1 | cpu 256M | .* GiB | .* GiB | .* GiB | [A-Z]* |$' m.md || fail "md row: $(cat m.md)"
	skip "other processes moved the machine's memory by$MEM_SEEN MiB in three runs (PASS needs at most 96): too busy to judge"
fi
[ $MEM_RC -eq 0 ] || fail "md run failed: $(cat m.md)"
grep -q '^| 1 | cpu 256M | .* GiB | .* GiB | .* GiB | PASS |$' m.md || fail "md row: $(cat m.md)"
exit 0
