# wrap: a command that fails (exit 3, or cannot be run) is recorded with its
# exit status and stderr tail; the results file is still written; exit 1.
# test: sanitizers (C paths the unit tests miss: tools/sanitize-pick.sh)
. "$top/tests/cli/lib.sh"
"$MEMPATH" wrap -n 2 -o f.json -- sh "$top/tests/data/fake-fail.sh" >f.txt 2>f.err
rc=$?
[ $rc -eq 1 ] || fail "exit $rc, expected 1"
grep -q "wrap: run 1: exit 3 .*: fake-fail: cannot open model file 'missing.gguf'" f.err ||
	fail "failure not shown: $(cat f.err)"
grep -q '^exit_status  *3  *3 ' f.txt || fail "exit status row: $(cat f.txt)"
grep -q '^bandwidth' f.txt && fail "a failed run's numbers were used"
"$MEMPATH" report f.json --format csv >f.csv || fail "results file rejected"
awk -F, 'NR == 2 { exit !($2 == "fail") }' f.csv || fail "status not fail"
grep -q '"reason": "2 of 2 runs failed' f.json || fail "reason"
grep -q '"stderr_tail": "fake-fail: cannot open model file' f.json || fail "stderr tail not kept"
grep -q '"exit_code": 3' f.json || fail "exit code not kept"
"$MEMPATH" wrap -n 1 -o nf.json -- ./no-such-command >nf.txt 2>nf.err
[ $? -eq 1 ] || fail "missing command: exit not 1"
grep -q "exit 127.*cannot run './no-such-command'" nf.err || fail "exec failure not shown: $(cat nf.err)"
[ -s nf.json ] || fail "no results file for a command that cannot run"
exit 0
