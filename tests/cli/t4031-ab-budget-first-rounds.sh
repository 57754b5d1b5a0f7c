# ab --rounds auto --budget bounds the first rounds too (docs/design.md
# §5.13): before the first setup ab says that every leg is bounded by the
# budget; a plan whose first rounds cannot fit it (100000 first touches a
# leg) is stopped at the budget with one error line naming it, the restore
# runs, and the leg's partial results are kept. It used to run past 60 s.
. "$top/tests/cli/lib.sh"
start=$(date +%s)
timeout 120 "$MEMPATH" ab --rounds auto --budget 10 --a 'echo a >>setups' --b 'echo b >>setups' -o d -- \
	probe cpu.first_touch size=2M --reps 100000 >out.txt 2>err.txt
rc=$?
took=$(($(date +%s) - start))
[ $rc -ne 124 ] || fail "ab ran past 120 s with --budget 10"
[ $rc -eq 1 ] || fail "ab with a plan past its budget: exit $rc, expected 1: $(tail -3 err.txt)"
# the budget, a leg's start and its stop; a busy machine may add a few seconds
[ $took -le 40 ] || fail "ab took $took s with --budget 10"
grep -q '^ab: --budget 10 s bounds every leg: the first 4 rounds (8 legs)' err.txt ||
	fail "no word of the budget before the first setup: $(head -5 err.txt)"
[ "$(grep -n 'bounds every leg' err.txt | cut -d: -f1)" -lt "$(grep -n 'setup: ' err.txt | head -1 | cut -d: -f1)" ] ||
	fail "the budget was said after the first setup"
grep -q "^mempath: error: leg 1 (A, A) stopped at the --budget of 10 s: the rounds a verdict needs do not fit it" err.txt ||
	fail "no error naming the budget: $(cat err.txt)"
grep -q '^ab: restore (a leg failed)' err.txt || fail "the restore did not run: $(tail -3 err.txt)"
[ "$(tail -n 1 setups)" = a ] || fail "the machine was not put back to A: $(cat setups)"
ls d/leg-1-r1-*.json >/dev/null 2>&1 || fail "the stopped leg's partial results were lost: $(ls d)"
# legs that end but at a pace the first 4 rounds cannot keep within the
# budget: ab stops once a leg shows it (before the budget), saying how long
# they would take; a leg still running at the budget is stopped there
rm -rf d setups
start=$(date +%s)
timeout 120 "$MEMPATH" ab --rounds auto --budget 2 --a true --b true -o d -- \
	probe cpu.wake --reps 24 >out.txt 2>err.txt
rc=$?
took=$(($(date +%s) - start))
[ $rc -eq 1 ] || fail "ab with legs past a 2 s budget: exit $rc: $(tail -3 err.txt)"
[ $took -le 30 ] || fail "ab took $took s with --budget 2"
if grep -q '^mempath: error: the first 8 legs a verdict needs would take about [0-9]* s at this pace ([0-9]* took [0-9]* s), past the --budget of 2 s: stopped' err.txt; then
	[ "$(ls d/leg-*.json | wc -l)" -lt 8 ] || fail "the pace was judged after the first rounds: $(ls d)"
else
	grep -q 'stopped at the --budget of 2 s' err.txt || fail "no error naming the budget: $(cat err.txt)"
fi
