# A results file saved before its run ended (the process was killed with
# SIGKILL, so nothing could mark it) reads as incomplete in report and compare;
# a run that ends marks its file complete.
# test: sanitizers (C paths the unit tests miss: tools/sanitize-pick.sh)
. "$top/tests/cli/lib.sh"
d=$top/tests/data
spawn "$MEMPATH" run --suite quick --only cpu.latency --reps 6 --warmups 0 -o k.json \
	>run.out 2>run.err
pid=$spawned
# The file is written as soon as the fingerprint is taken; kill before the
# probe ends.
i=0
while [ ! -s k.json ] && [ $i -lt 600 ]; do
	sleep 0.1
	i=$((i + 1))
done
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
pkill -9 -s $pid 2>/dev/null # its probe child
[ -s k.json ] || fail "no results file was saved within 60 s"
grep -q '"complete": false' k.json || fail "a file saved mid-run says complete: $(grep complete k.json)"
"$MEMPATH" report k.json >r.txt || fail "report of the killed run exited $?"
grep -q '^INCOMPLETE RUN' r.txt || fail "report does not say incomplete: $(head -5 r.txt)"
"$MEMPATH" report k.json --format md | grep -q 'Incomplete run' || fail "md does not say incomplete"

# A comparison with an incomplete leg says so first.
sed 's|"schema": "mempath/run/1",|"schema": "mempath/run/1", "complete": false,|' \
	"$d/cmp-aa-2.json" >inc.json
grep -q '"complete": false' inc.json || fail "the fixture changed"
"$MEMPATH" compare "$d/cmp-aa-1.json" inc.json "$d/cmp-aa-3.json" --format json -o c.json ||
	fail "compare exited $?"
"$MEMPATH" report c.json | head -1 | grep -q '^incomplete runs - verdicts rest on partial results: stock again (inc.json)$' ||
	fail "compare's first line: $("$MEMPATH" report c.json | head -1)"

# A run that ends says complete.
"$MEMPATH" probe cpu.first_touch size=16M pages=4k --reps 6 --warmups 0 -o ok.json >/dev/null 2>&1 ||
	fail "probe exited $?"
grep -q '"complete": true' ok.json || fail "a finished run is not marked complete"
"$MEMPATH" report ok.json | grep -q INCOMPLETE && fail "a finished run reads incomplete"
# An output that cannot be written is known before any work is done.
expect_fail 1 "$MEMPATH" run --quiet --only cpu.latency -o /nonexistent-dir/x.json
grep -q "nonexistent-dir/x.json" err.txt || fail "the path is not named: $(cat err.txt)"
# a name too long for the file system (a long label is cut in default
# names: t3004)
long=$(printf '%0300d' 0)
t0=$(date +%s)
"$MEMPATH" wrap --quiet -n 1 -o "$long.json" -- sleep 30 >/dev/null 2>err.txt && fail "a 300-character name wrote a file"
[ $(($(date +%s) - t0)) -lt 20 ] || fail "the workload ran before the output was found unwritable"
grep -q 'error' err.txt || fail "no error for a name too long: $(cat err.txt)"
exit 0
