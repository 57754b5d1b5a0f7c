# results io: Ctrl-C ends the children and still writes what was measured
. "$top/tests/cli/lib.sh"
"$MEMPATH" run --suite cpu --reps 2 --warmups 0 -o int.json >int.out 2>int.err &
pid=$!
i=0
while [ ! -f int.json ] && [ $i -lt 600 ]; do
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
[ -z "$(running_here "mempath run --suite cpu --reps 2")" ] || fail "children left running"
exit 0
