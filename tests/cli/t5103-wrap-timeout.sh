# wrap: --timeout ends a run's whole process group (its background child
# too); Ctrl-C ends the run, writes partial results and exits 130.
# test: sanitizers (C paths the unit tests miss: tools/sanitize-pick.sh)
. "$top/tests/cli/lib.sh"
slow="$top/tests/data/fake-slow.sh"
spawn "$MEMPATH" wrap -n 1 --timeout 1 -o t.json -- sh "$slow" 37 >t.txt 2>t.err
sid=$spawned
wait $sid
[ $? -eq 1 ] || fail "timeout: exit not 1"
grep -q 'wrap: run 1: timeout (1.0' t.err || fail "timeout not reported: $(cat t.err)"
grep -q '"status": "timeout"' t.json || fail "timeout not recorded"
sleep 0.2
left $sid "sleep 37" >/dev/null && fail "the command's background child outlived the timeout"
spawn "$MEMPATH" wrap -n 3 -o i.json -- sh "$slow" 38 >i.txt 2>i.err
pid=$spawned
i=0
while ! left $pid "sleep 38" >/dev/null && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
kill -INT $pid
wait $pid
rc=$?
[ $rc -eq 130 ] || fail "interrupted wrap exited $rc, expected 130: $(cat i.err)"
grep -q '"interrupted": true' i.json || fail "partial results not marked interrupted"
grep -q '"reason": "interrupted after 1 of 3 runs"' i.json || fail "reason: $(grep reason i.json)"
sleep 0.2
left $pid "sleep 38" >/dev/null && fail "the command outlived Ctrl-C"
exit 0
