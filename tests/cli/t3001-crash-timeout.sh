# results io: a probe that crashes or hangs is recorded as such; the run goes on
. "$top/tests/cli/lib.sh"
"$MEMPATH" probe cpu.first_touch size=1G --reps 50 --timeout 1 -o to.json >to.txt 2>&1
[ $? -eq 1 ] || fail "a probe that timed out should exit 1"
grep -q "timeout" to.txt || fail "timeout not reported: $(cat to.txt)"
"$MEMPATH" report to.json --format csv | awk -F, 'NR == 2 { exit !($2 == "timeout") }' ||
	fail "timeout status not stored"
# A crash: kill the probe's child with SIGSEGV while it runs. The progress
# line is printed just before the probe's child is forked (an earlier child
# collects the GPU part of the fingerprint and must not be the one killed).
"$MEMPATH" probe cpu.first_touch size=1G --reps 50 -o seg.json >seg.txt 2>seg.err &
pid=$!
child=""
i=0
while [ -z "$child" ] && [ $i -lt 300 ]; do
	sleep 0.1
	grep -q "cpu.first_touch \.\.\." seg.err && child=$(pgrep -P $pid | head -n 1)
	i=$((i + 1))
done
[ -n "$child" ] || fail "no probe child seen"
sleep 0.3
kill -SEGV "$child"
wait $pid
[ $? -eq 1 ] || fail "a crashed probe should give exit 1"
"$MEMPATH" report seg.json >/dev/null || fail "the run should survive a crashed probe and write its file"
grep -q "crashed: signal 11" seg.txt seg.err || fail "crash not reported: $(cat seg.txt seg.err)"
# Over the memory cap: refused with the way round it named, exit 1.
"$MEMPATH" probe cpu.first_touch size=30T --reps 1 >cap.txt 2>cap.err
[ $? -eq 1 ] || fail "a refused size should exit 1"
grep -q -- '--force' cap.err || fail "the over-the-cap message does not name --force: $(cat cap.err)"
exit 0
