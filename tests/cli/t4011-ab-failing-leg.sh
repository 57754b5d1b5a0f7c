# ab: a setup command or a leg that fails stops the run with a clear message
# and the restore still runs; bad usage is refused before anything runs.
# test: sanitizers (C paths the unit tests miss: tools/sanitize-pick.sh)
. "$top/tests/cli/lib.sh"
probe="probe cpu.first_touch size=16M touch=write pages=4k --reps 6 --warmups 0"
"$MEMPATH" ab --legs ABA --a 'echo A >>trail' --b 'echo B >>trail; exit 3' --restore 'echo restored >>trail' \
	-o d1 -- $probe >out.txt 2>err.txt
rc=$?
[ $rc -eq 1 ] || fail "failing setup: exit $rc"
grep -q "^mempath: error: setup of leg 2 (B, B) exited 3: 'echo B >>trail; exit 3'" err.txt ||
	fail "setup failure message: $(cat err.txt)"
[ "$(tail -1 trail)" = restored ] || fail "restore did not run after the failed setup: $(cat trail)"
grep -q 'restore (a leg failed)' d1/restore.log || fail "restore.log: $(cat d1/restore.log)"
[ ! -e d1/compare.md ] || fail "compared although a leg failed"

rm -f trail
# a leg that fails as it starts: refused before any setup (its options are
# checked as the leg would check them)
expect_fail 2 "$MEMPATH" ab --legs ABA --a 'echo A >>trail' --b 'echo B >>trail' -o d2 -- probe cpu.first_touch bogus=1
grep -q "unknown option 'bogus' for cpu.first_touch" err.txt || fail "leg check message: $(cat err.txt)"
[ ! -e trail ] || fail "a setup ran for a leg that cannot run: $(cat trail)"
# a leg that fails once running: the restore (the A command) runs
"$MEMPATH" ab --legs ABA --a 'echo A >>trail' --b 'echo B >>trail' -o d4 -- wrap -n 6 -- false >out.txt 2>err.txt
rc=$?
[ $rc -eq 1 ] || fail "failing leg: exit $rc"
grep -q '^mempath: error: leg 1 (A, A) exited 1' err.txt || fail "leg failure message: $(cat err.txt)"
[ "$(cat trail)" = "A
A" ] || fail "default restore (the A command) did not run: $(cat trail)"

expect_fail 2 "$MEMPATH" ab --legs ABA --a true -- run --suite quick
expect_fail 2 "$MEMPATH" ab -o d3 --legs AXA -- run
expect_fail 2 "$MEMPATH" ab --legs ABA -o d3 -- compare a.json b.json
expect_fail 2 "$MEMPATH" ab --legs ABA -o d3 -- run -o x.json
expect_fail 2 "$MEMPATH" ab --legs ABA -o d3
[ ! -e d3 ] || fail "bad usage created the directory"
exit 0
