# phantom: the check can fail. --detach leaves a setsid grandchild holding
# the memory after the child exits: a phantom the check must catch (FAIL,
# exit 1). The check reads the whole machine, so the test watches it too
# (mem_quiet, lib.sh): the verdict and the missing amount are judged on a run
# during which other processes moved memory by at most 384 MiB (the planted
# 1 GiB less the 256 MiB tolerance, halved); after three busier runs they
# are skipped with the amounts seen. What the test itself holds is always
# checked: the holder's resident memory, its pid in the table and the file.
# The detached holder is killed here, whatever happens.
# test: alone (reads what the whole machine's memory does: tests/run.sh)
. "$top/tests/cli/lib.sh"
holder=""
cleanup() {
	[ -n "$holder" ] && kill "$holder" 2>/dev/null
}
trap cleanup EXIT
plant() {
	cleanup
	"$MEMPATH" phantom --cpu 1G --detach --settle 1.5 -o p.json >p.txt 2>p.err
	rc=$?
	holder=$(sed -n 's/^detached holder pid \([0-9]*\).*/\1/p' p.txt)
	return $rc
}
held() {
	[ -n "$holder" ] || fail "detached pid not printed: $(cat p.txt p.err)"
	kill -0 "$holder" 2>/dev/null || fail "the detached holder is not running"
	rss=$(awk '$1 == "Rss:" { print int($2 / 1024) }' "/proc/$holder/smaps_rollup")
	[ "${rss:-0}" -ge 1000 ] || fail "the detached holder keeps ${rss:-?} MiB, not 1024"
	grep -q '"detached_pid": '"$holder" p.json || fail "detached pid not recorded"
	"$MEMPATH" report p.json --format csv >p.csv || fail "results file rejected"
}
if ! mem_quiet 384 plant; then
	held
	skip "other processes moved the machine's memory by$MEM_SEEN MiB in three runs (a verdict needs at most 384): too busy to judge"
fi
held
[ $MEM_RC -eq 1 ] || fail "exit $MEM_RC, expected 1 (FAIL): $(cat p.txt p.err)"
grep -q '^result: FAIL$' p.txt || fail "not FAIL: $(cat p.txt)"
grep -q '^NOT returned to within 0.250 GiB' p.txt || fail "no 'not returned' line"
awk -F, 'NR == 2 { exit !($2 == "fail") }' p.csv || fail "status not fail"
grep -q '"reason": "[0-9.]* GiB not returned' p.json || fail "reason: $(grep reason p.json)"
# What mempath found missing is what the holder keeps, give or take what
# the others moved (within the samples and between two of them) and 64 MiB
# for mempath's own children.
missing=$(sed -n 's/.*"missing_bytes": \(-*[0-9]*\).*/\1/p' p.json | head -n 1)
off=$((${missing:-0} / 1048576 - rss))
[ $off -ge 0 ] || off=$((-off))
[ $off -le $((MEM_DRIFT_MIB + MEM_STEP_MIB + 64)) ] ||
	fail "missing $((${missing:-0} / 1048576)) MiB; the holder keeps $rss MiB, others moved $MEM_DRIFT_MIB MiB (steps up to $MEM_STEP_MIB)"
exit 0
