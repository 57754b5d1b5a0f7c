# phantom: the check can fail. --detach leaves a setsid grandchild holding
# the memory after the child exits: a phantom the check must catch (FAIL,
# exit 1). The detached holder is killed here, whatever happens.
. "$top/tests/cli/lib.sh"
cleanup() {
	pid=$(sed -n 's/^detached holder pid \([0-9]*\).*/\1/p' p.txt 2>/dev/null)
	[ -n "$pid" ] && kill "$pid" 2>/dev/null
}
trap cleanup EXIT
"$MEMPATH" phantom --cpu 640M --detach --settle 1.5 -o p.json >p.txt 2>p.err
rc=$?
[ $rc -eq 1 ] || fail "exit $rc, expected 1 (FAIL): $(cat p.txt p.err)"
grep -q '^result: FAIL$' p.txt || fail "not FAIL: $(cat p.txt)"
grep -q '^NOT returned to within 0.250 GiB' p.txt || fail "no 'not returned' line"
grep -q '^detached holder pid [0-9]' p.txt || fail "detached pid not printed"
pid=$(sed -n 's/^detached holder pid \([0-9]*\).*/\1/p' p.txt)
kill -0 "$pid" 2>/dev/null || fail "the detached holder is not running"
"$MEMPATH" report p.json --format csv >p.csv || fail "results file rejected"
awk -F, 'NR == 2 { exit !($2 == "fail") }' p.csv || fail "status not fail"
grep -q '"reason": "0.[5-6][0-9]* GiB not returned' p.json || fail "reason: $(grep reason p.json)"
grep -q '"detached_pid": '"$pid" p.json || fail "detached pid not recorded"
kill "$pid"
exit 0
