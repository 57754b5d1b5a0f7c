# nothing waits forever: a FIFO no process writes as an input and one no
# process reads as -o are errors (inputs are opened without blocking, as
# outputs are), a FIFO with a writer is read as a pipe is, and a child that
# stops itself (SIGSTOP, SIGTSTP), or waits on a process of its own that is
# stopped, is ended as a timeout ends one, saying so.
. "$top/tests/cli/lib.sh"
d="$top/tests/data"
mkfifo fifo || skip "cannot make a FIFO here"
# bounded CMD...: CMD, killed after 60 s; a kill is a hang.
bounded() {
	timeout -s KILL 60 "$@" >out.txt 2>err.txt
	rc=$?
	[ $rc -ne 137 ] || fail "'$*' hung (killed after 60 s)"
	[ $rc -lt 128 ] || fail "'$*' died of signal $((rc - 128)): $(cat err.txt)"
}
# command | expected exit | what the error line says
while IFS='|' read -r cmd want says; do
	# shellcheck disable=SC2086
	eval "set -- $cmd"
	bounded "$MEMPATH" "$@"
	[ $rc -eq "$want" ] || fail "'$cmd': exit $rc, expected $want: $(cat err.txt)"
	grep -q "$says" err.txt || fail "'$cmd': $(cat err.txt)"
done <<EOF
report fifo|2|'fifo' is a FIFO that no process writes
report fifo --format json|2|no process writes
compare fifo $d/cmp-aa-1.json|2|no process writes
compare $d/cmp-aa-1.json fifo|2|no process writes
doctor --from fifo|2|no process writes
fleet merge fifo $d/cmp-aa-1.json -o fl.json|2|no process writes
check fifo|2|no process writes
report $d/cmp-aa-1.json --format md -o fifo|1|a FIFO that no process reads
compare $d/cmp-aa-1.json $d/cmp-aa-2.json -o fifo|1|a FIFO that no process reads
probe cpu.wake --reps 1 --warmups 0 -o fifo|1|a FIFO that no process reads
wrap -q -n 1 -o fifo -- true|1|a FIFO that no process reads
EOF
# a FIFO with a writer (or a reader) is a pipe: read, or written through.
# The other end opens only once mempath has (a FIFO's open waits for its
# peer), and may come after mempath looked: so, as t0009, ask again while
# the answer is that no process writes (reads) yet - the event, not a time
cat "$d/cmp-aa-1.json" >fifo &
i=0
until bounded "$MEMPATH" report fifo; [ $rc -ne 2 ] || ! grep -q 'no process writes' err.txt; do
	i=$((i + 1))
	[ $i -lt 300 ] || fail "a FIFO being written: still no writer after 300 tries"
done
[ $rc -eq 0 ] || fail "a FIFO being written: exit $rc: $(cat err.txt)"
wait
cat fifo >got.md &
i=0
until bounded "$MEMPATH" report "$d/cmp-aa-1.json" --format md -o fifo
	[ $rc -ne 1 ] || ! grep -q 'no process reads' err.txt; do
	i=$((i + 1))
	[ $i -lt 300 ] || fail "a FIFO being read: still no reader after 300 tries"
done
[ $rc -eq 0 ] || fail "a FIFO being read: exit $rc: $(cat err.txt)"
wait
grep -q '^| ' got.md || fail "nothing came through the FIFO: $(head -3 got.md)"

# children that stop themselves: ended, said, never waited for
for stop in STOP TSTP; do
	bounded "$MEMPATH" wrap -n 1 -o w$stop.json -- sh -c "kill -$stop \$\$"
	[ $rc -eq 1 ] || fail "wrap, workload kill -$stop: exit $rc: $(cat err.txt)"
	grep -q 'stopped itself' out.txt err.txt w$stop.json || fail "wrap, kill -$stop: no reason: $(cat out.txt err.txt)"
	bounded "$MEMPATH" wrap -n 1 --timeout 30 -o t$stop.json -- sh -c "kill -$stop \$\$"
	[ $rc -eq 1 ] || fail "wrap --timeout 30, kill -$stop: exit $rc"
done
# a child of the workload stopped, the workload waiting on it
bounded "$MEMPATH" wrap -n 1 -o wg.json -- sh -c 'sleep 30 & kill -STOP $!; wait'
[ $rc -eq 1 ] || fail "wrap, a stopped grandchild: exit $rc: $(cat err.txt)"
grep -q 'a process it started stayed stopped: ended' err.txt || fail "wrap, a stopped grandchild: $(cat err.txt)"
echo A >state
bounded "$MEMPATH" ab --a 'echo A >state' --b 'echo B >state; kill -STOP $$' -o ab1 -- wrap -n 6 -- true
[ $rc -eq 1 ] || fail "ab, setup stops itself: exit $rc: $(cat err.txt)"
grep -q 'setup of leg 2 (B, B) stopped itself' err.txt || fail "ab: $(cat err.txt)"
[ "$(cat state)" = A ] || fail "ab: not restored after a stopped setup: $(cat state)"
exit 0
