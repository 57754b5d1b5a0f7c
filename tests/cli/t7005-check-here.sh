# mempath check on this machine: where data/ has reference values for its
# kind it runs the probes they name and prints one status per path; the exit
# status is 1 exactly when a path FAILs or cannot be judged (the numbers
# themselves depend on how busy the machine is, so no status is asserted).
# A machine of no kind is judged against its limits (data/limits.json).
# test: sanitizers (C paths the unit tests miss: tools/sanitize-pick.sh)
# test: long (started first where no earlier run's times order the pool: tests/run.sh)
. "$top/tests/cli/lib.sh"
"$MEMPATH" check --reps 6 --warmups 0 --quiet -o here.json >out.txt 2>err.txt
rc=$?
if [ $rc -eq 2 ] && grep -q 'no reference values for this kind of machine' err.txt; then
	skip "no reference values for this kind of machine: $(sed 's/.*machine (//; s/).*//' err.txt)"
fi
[ $rc -eq 0 ] || [ $rc -eq 1 ] || fail "exit $rc: $(cat err.txt)"
n=$(grep -c '^\(PASS\|WARN\|FAIL\|INCONCLUSIVE\)  ' out.txt)
counts=$(grep -E '^[0-9]+ PASS, ' out.txt)
total=$(echo "$counts" | awk '{ print $1 + $3 + $5 + $7 }')
[ "$n" -ge 1 ] && [ "$n" -eq "$total" ] || fail "$n status lines, summary '$counts'"
# the other figures: a line each, indented; one beyond its limit fails too
fails=$(( $(grep -c '^\(FAIL\|INCONCLUSIVE\)  ' out.txt) + $(grep -c '^  FAIL  ' out.txt) ))
[ $(( fails > 0 )) -eq $rc ] || fail "exit $rc with $fails FAIL or INCONCLUSIVE line(s)"
# a path not judged says why
if grep -q '^INCONCLUSIVE  ' out.txt; then
	[ "$(grep -c '^      why: ' out.txt)" -ge "$(grep -c '^INCONCLUSIVE  ' out.txt)" ] ||
		fail "INCONCLUSIVE without a reason: $(cat out.txt)"
fi
grep -q '^mempath check: .* against ' out.txt || fail "no header: $(head -1 out.txt)"
# the results file it saved reads back to the same statuses
"$MEMPATH" check here.json >again.txt
grep '^\(PASS\|WARN\|FAIL\|INCONCLUSIVE\)  ' out.txt | cut -c1-4 >a.txt
grep '^\(PASS\|WARN\|FAIL\|INCONCLUSIVE\)  ' again.txt | cut -c1-4 >b.txt
cmp -s a.txt b.txt || fail "check of the saved file differs: $(paste a.txt b.txt | head)"
exit 0
