# ab: SIGTERM during a setup command and Ctrl-C during a leg both end the
# run with the restore command having run (exit 130), the machine as found.
# test: sanitizers (C paths the unit tests miss: tools/sanitize-pick.sh)
. "$top/tests/cli/lib.sh"
probe="probe cpu.first_touch size=16M touch=write pages=4k --warmups 0"
wait_for() {
	i=0
	while [ ! -e "$1" ] && [ $i -lt 300 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ -e "$1" ] || fail "$1 never appeared"
}

"$MEMPATH" ab --legs ABA --a 'echo A >state' --b 'echo B >state; touch b-started; exec sleep 30' \
	--restore 'echo restored >state' -o d1 -- $probe --reps 6 >out1.txt 2>err1.txt &
pid=$!
wait_for b-started
kill -TERM $pid
wait $pid
rc=$?
[ $rc -eq 130 ] || fail "SIGTERM during setup: exit $rc, expected 130: $(cat err1.txt)"
[ "$(cat state)" = restored ] || fail "state after SIGTERM: $(cat state)"
grep -q 'restore (interrupted by SIGTERM)' d1/restore.log || fail "restore.log: $(cat d1/restore.log)"
grep -q '^# exited 0' d1/restore.log || fail "restore did not finish"
grep -q 'killed by signal\|exited' d1/leg-2-setup.log || fail "setup log not closed"

rm -f state
spawn "$MEMPATH" ab --legs ABA --a 'echo A >state' --b 'echo B >state' --restore 'echo restored >state' -o d2 \
	-- probe cpu.first_touch size=64M touch=write pages=4k,thp --warmups 0 --reps 100000 >out2.txt 2>err2.txt
pid=$spawned
wait_for d2/leg-1-setup.log
sleep 1
kill -INT $pid
wait $pid
rc=$?
[ $rc -eq 130 ] || fail "Ctrl-C during a leg: exit $rc, expected 130: $(cat err2.txt)"
[ "$(cat state)" = restored ] || fail "state after Ctrl-C: $(cat state)"
grep -q 'restore (interrupted by SIGINT)' d2/restore.log || fail "restore.log: $(cat d2/restore.log)"
grep -q '"interrupted": true' d2/leg-1-A.json || fail "the leg did not keep its partial results"
left $pid >/dev/null && fail "leg children left running: $(left $pid)"
exit 0
