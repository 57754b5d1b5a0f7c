# ab never leaves the machine in B unrecorded: a B setup with nothing to put
# it back is refused before it runs, and a directory is one ab's from the
# check to its exit, so a second ab (or --restore-pending) on it is refused
# before it runs or removes anything (its restore used to clear the first
# one's record while that one was in B).
# test: long (started first where no earlier run's times order the pool: tests/run.sh)
. "$top/tests/cli/lib.sh"
fast="wrap -n 6 -- true"
wait_for() {
	i=0
	while [ ! -e "$1" ] && [ $i -lt 300 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ -e "$1" ] || fail "$1 never appeared"
}

# setups | expected exit (2: refused before any setup ran) | state after
while IFS='|' read -r setups want after; do
	rm -rf d0 state
	echo A >state
	eval "set -- $setups"
	"$MEMPATH" ab "$@" -o d0 -- $fast >out.txt 2>err.txt
	rc=$?
	if [ "$want" -eq 0 ]; then
		verdict_ok $rc out.txt || fail "ab $setups: exit $rc: $(grep -E '^(summary|no trusted verdict)' out.txt) $(sed -n '/^knobs differ/,/^$/p' out.txt | head -n 5) $(cat err.txt)"
	else
		[ $rc -eq "$want" ] || fail "ab $setups: exit $rc, expected $want: $(cat err.txt)"
	fi
	if [ "$want" -eq 2 ]; then
		[ "$(cat state)" = A ] || fail "ab $setups: refused but B's setup ran"
		[ "$(wc -l <err.txt)" -eq 1 ] && grep -q 'nothing puts it back' err.txt ||
			fail "ab $setups: $(cat err.txt)"
	fi
	[ "$(cat state)" = "$after" ] || fail "ab $setups: state $(cat state), expected $after"
	[ ! -e d0/restore.pending ] || fail "ab $setups: a record left behind"
done <<'EOF'
--b 'echo B >state'|2|A
--b 'echo B >state' --b-env X=1 --a-env Y=2|2|A
--b 'echo B >state' --label-b on --legs ABAB|2|A
--b 'echo B >state' --restore 'echo A >state'|0|A
--b 'echo B >state' --restore true --b-env X=1|0|B
--a 'echo A >state' --b 'echo B >state'|0|A
--a-env X=1 --b-env X=2|0|A
EOF

# a second ab on a directory in use: refused, the first one's record kept,
# whether the first is in its legs with no record at all (no setups) or in B
spawn "$MEMPATH" ab --a-env X=1 --b-env X=2 -o d1 -- wrap -n 6 -- sh -c 'touch leg-on; sleep 30' >spawn.out 2>&1
first=$spawned
wait_for leg-on
for second in "--a-env X=1 --b-env X=2 -o d1 -- $fast" \
	"--a 'echo A >state' --b 'echo B >state' -o d1 -- $fast" "--restore-pending d1"; do
	eval "set -- $second"
	expect_fail 2 "$MEMPATH" ab "$@"
	grep -q "'d1' is in use by another ab" err.txt || fail "ab $second: $(cat err.txt)"
done
kill -KILL $first
wait $first 2>/dev/null
for p in $(left $first); do kill -KILL "$p" 2>/dev/null; done

rm -f state leg-on
echo A >state
spawn "$MEMPATH" ab --a 'echo A >state' --b 'echo B >state; touch b-set; exec sleep 30' -o d2 -- $fast >spawn.out 2>&1
first=$spawned
wait_for b-set
expect_fail 2 "$MEMPATH" ab --a 'echo A >state' --b 'echo B >state' -o d2 -- $fast
expect_fail 2 "$MEMPATH" ab --restore-pending d2
[ -s d2/restore.pending ] || fail "the second ab removed the first one's record"
[ "$(cat state)" = B ] || fail "the second ab changed the state: $(cat state)"
kill -KILL $first
wait $first 2>/dev/null
for p in $(left $first); do kill -KILL "$p" 2>/dev/null; done
"$MEMPATH" ab --restore-pending d2 >out.txt 2>err.txt || fail "restore-pending after kill: $(cat err.txt)"
[ "$(cat state)" = A ] || fail "not restored: $(cat state)"

# two started together: one runs, the other is refused; the machine ends in A
for k in 1 2 3; do
	echo A >state
	"$MEMPATH" ab --a 'echo A >state' --b 'echo B >state' -o r$k -- $fast >o1.txt 2>e1.txt &
	p1=$!
	"$MEMPATH" ab --a 'echo A >state' --b 'echo B >state' -o r$k -- $fast >o2.txt 2>e2.txt &
	p2=$!
	wait $p1
	rc1=$?
	wait $p2
	rc2=$?
	refused=0
	for e in 1 2; do grep -q 'is in use by another ab' e$e.txt && refused=$((refused + 1)); done
	[ $refused -le 1 ] || fail "round $k: both refused"
	[ "$(cat state)" = A ] || fail "round $k: left in $(cat state) (exits $rc1, $rc2)"
	[ ! -e r$k/restore.pending ] || fail "round $k: a record left after both ended"
	[ -s r$k/compare.json ] || fail "round $k: no comparison (exits $rc1, $rc2): $(cat e1.txt e2.txt)"
done
exit 0
