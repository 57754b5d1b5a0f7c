# phantom --churn: K cycles while a holder (a shell command, or cpu:SIZE)
# keeps running and a host memory hog applies pressure; both are gone at the
# end, every cycle is checked, new kernel warnings are counted. The check
# reads the whole machine: its tolerance is 256 MiB plus twice what other
# processes moved memory by in 2 s just before (lib.sh, mem_watch), and PASS
# is judged on a run during which they moved it by at most half that
# (mem_quiet), else skipped with the amounts seen after three runs. The
# shape of the report is checked on every run.
# test: alone (reads what the whole machine's memory does: tests/run.sh)
. "$top/tests/cli/lib.sh"
mem_watch_start
sleep 2
mem_watch_stop
tol=$((256 + 2 * MEM_DRIFT_MIB))
churn() {
	"$MEMPATH" phantom --cpu 256M --hold 0 --churn 3 --holder 'sleep 39' --hog 256M --settle 4 \
		--tolerance ${tol}M -o c.json >c.txt 2>c.err
}
shape() {
	grep -q '^result: \(PASS\|FAIL\)$' c.txt || fail "no verdict (exit $MEM_RC): $(cat c.txt c.err)"
	grep -q '^phantom: cpu 256M  (3 cycles, holder sleep 39)$' c.txt || fail "title: $(head -n 1 c.txt)"
	[ "$(grep -c '^ *[123] exit 0 ' c.txt)" -eq 3 ] || fail "cycle rows: $(cat c.txt)"
	grep -q 'starting a 0.2 GiB host memory hog' c.err || fail "hog not started"
	grep -q 'holder and hog stopped; settling' c.err || fail "no final settle"
	if [ -r /dev/kmsg ]; then
		grep -q '^kernel log (/dev/kmsg): [0-9]* new warnings, 0 bug reports$' c.txt || fail "kernel log line: $(cat c.txt)"
	else
		grep -q '^kernel log: skipped: ' c.txt || fail "no skip reason for the kernel log"
	fi
	sleep 0.2
	[ -z "$(running_here "sleep 39")" ] || fail "the holder outlived the run"
	"$MEMPATH" report c.json --format csv | grep -q '^work.phantom,[a-z]*,cycle_missing,,GiB,lower,3,' ||
		fail "per-cycle metric"
}
if ! mem_quiet $((tol / 2)) churn; then
	shape
	skip "other processes moved the machine's memory by$MEM_SEEN MiB in three runs (PASS needs at most $((tol / 2))): too busy to judge"
fi
shape
[ $MEM_RC -eq 0 ] || fail "churn exited $MEM_RC: $(cat c.txt c.err)"
grep -q '^result: PASS$' c.txt || fail "not PASS: $(cat c.txt)"
# A built-in holder.
held() {
	"$MEMPATH" phantom --cpu 128M --hold 0 --churn 2 --holder cpu:128M --settle 4 --tolerance ${tol}M \
		-q -o h.json >h.txt 2>&1
}
if ! mem_quiet $((tol / 2)) held; then
	grep -q '^result: \(PASS\|FAIL\)$' h.txt || fail "cpu holder: no verdict: $(cat h.txt)"
	skip "other processes moved the machine's memory by$MEM_SEEN MiB in three runs (PASS needs at most $((tol / 2))): too busy to judge"
fi
[ $MEM_RC -eq 0 ] || fail "cpu holder run failed: $(cat h.txt)"
grep -q '^result: PASS$' h.txt || fail "cpu holder: not PASS: $(cat h.txt)"
exit 0
