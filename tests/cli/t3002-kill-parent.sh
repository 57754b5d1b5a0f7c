# processes: a mempath killed with SIGKILL (no handler runs) leaves no probe
# child behind: every child asks the kernel for SIGKILL when its parent dies.
. "$top/tests/cli/lib.sh"
# "STATE STARTTIME" of a process, or nothing once it is gone; a zombie
# (state Z) is gone too: it only waits for init to reap it.
proc_state() {
	sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | awk '$1 != "Z" { print $1, $20 }'
}
# 100000 first touches of 64 MiB take hours; the test waits seconds (a
# 1000-round cpu.wake once ended in 0.5 s, before the kill).
"$MEMPATH" probe cpu.first_touch size=64M pages=4k touch=write --reps 100000 --warmups 0 \
	-o k.json >k.txt 2>k.err &
pid=$!
child=""
i=0
# The progress line comes just before the probe's child is forked (an
# earlier child collects the GPU part of the fingerprint and is gone by then).
while [ -z "$child" ] && [ $i -lt 300 ]; do
	sleep 0.1
	grep -q "cpu.first_touch \.\.\." k.err && child=$(pgrep -P $pid | head -n 1)
	i=$((i + 1))
done
if [ -z "$child" ]; then
	kill -9 $pid
	fail "no probe child seen: $(cat k.err)"
fi
sleep 0.5
before=$(proc_state "$child")
[ -n "$before" ] || { kill -9 $pid; fail "the probe child ended before the kill: $(cat k.err)"; }
kill -9 $pid
wait $pid 2>/dev/null
i=0
while [ "$(proc_state "$child")" = "$before" ] && [ $i -lt 20 ]; do
	sleep 0.1
	i=$((i + 1))
done
if [ "$(proc_state "$child")" = "$before" ]; then
	kill -9 "$child"
	fail "probe child $child still running 2 s after its parent was killed with SIGKILL"
fi
# The results file is written whole or not at all (written atomically).
[ ! -f k.json ] || "$MEMPATH" report k.json --format csv >/dev/null ||
	fail "the results file left behind is unreadable"
exit 0
