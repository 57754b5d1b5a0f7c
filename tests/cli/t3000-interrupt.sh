# results io: Ctrl-C ends the children and still writes what was measured
. "$top/tests/cli/lib.sh"
# two probes of seconds each at quick sizes: the interrupt comes while the
# second runs
spawn "$MEMPATH" run --suite quick --only cpu.latency,cpu.reach --reps 2 --warmups 0 -o int.json \
	>int.out 2>int.err
pid=$spawned
i=0
# The file is written at the start (incomplete) and after every probe: wait
# for the first probe's result.
while ! grep -q '"status": "ok"' int.json 2>/dev/null && [ $i -lt 600 ]; do
	sleep 0.1
	i=$((i + 1))
done
[ -f int.json ] || fail "no results file after the first probe"
kill -INT $pid
wait $pid
rc=$?
[ $rc -eq 130 ] || fail "interrupted run exited $rc, expected 130"
"$MEMPATH" report int.json --format csv >int.csv || fail "partial results unreadable"
grep -q '"interrupted": true' int.json || fail "partial run not marked interrupted"
[ "$(awk -F, 'NR > 1 && $2 == "ok"' int.csv | wc -l)" -gt 0 ] || fail "nothing measured kept"
left $pid >/dev/null && fail "children left running: $(left $pid)"
exit 0
