# compare and the noise meter's record (docs/design.md §4.14, §5.10, §5.11):
# a metric whose legs were measured under different load gets no verdict
# (UNSTABLE, the load said first) and touches no other metric's: exit 0,
# the summary counts them; legs under the same load are judged;
# rounds cancel a load between rounds and leave out a round whose legs' load
# differed. Fixtures: tests/data/gen_fixtures.sh (cmp-busy-*, cmp-r*).
# test: sanitizers (C paths the unit tests miss: tools/sanitize-pick.sh)
. "$top/tests/cli/lib.sh"
d=$top/tests/data

# A/A/A, B measured with 1.8 other CPUs busy, the A legs at 0.1
"$MEMPATH" compare "$d/cmp-busy-a1.json" "$d/cmp-busy-b.json" "$d/cmp-busy-a2.json" >busy.txt
rc=$?
[ $rc -eq 0 ] || fail "legs under different load exited $rc, not 0: $(cat busy.txt)"
head -1 busy.txt | grep -q '^legs measured under different load - no verdict: cpu.first_touch' ||
	fail "the load is not said first: $(head -1 busy.txt)"
grep '^cpu.first_touch touch_rate pages=4k' busy.txt |
	grep -q 'UNSTABLE: 1.8 other CPUs busy during stock again, 0.1 during stock' ||
	grep '^cpu.first_touch touch_rate pages=4k' busy.txt |
	grep -q 'UNSTABLE: 1.8 other CPUs busy during .*, 0.1 during ' ||
	fail "metric not UNSTABLE for its load: $(grep 'touch_rate pages=4k' busy.txt)"
grep -Eq '^cpu.first_touch .*(WIN|LOSS)' busy.txt && fail "a verdict under different load: $(cat busy.txt)"
tail -1 busy.txt | grep -q '^summary: 0 WIN, 0 LOSS, 0 NOWIN, 6 UNSTABLE (6 measured under different load); no geomean' ||
	fail "summary: $(tail -1 busy.txt)"
# the same legs with a threshold above their difference: the load no longer
# withholds a verdict; A/B/A' has too few legs for one (t4000), exit 0
"$MEMPATH" compare --load-diff 2 "$d/cmp-busy-a1.json" "$d/cmp-busy-b.json" "$d/cmp-busy-a2.json" >wide.txt ||
	fail "--load-diff 2 exited $?: $(tail -1 wide.txt)"
tail -1 wide.txt | grep -q '^summary: 0 WIN, 0 LOSS, 0 NOWIN, 0 UNSTABLE; .*; 6 too few samples or legs' ||
	fail "summary with --load-diff 2: $(tail -1 wide.txt)"
# the JSON keeps each leg's load and the metrics' own UNSTABLE; report renders it again
"$MEMPATH" compare "$d/cmp-busy-a1.json" "$d/cmp-busy-b.json" "$d/cmp-busy-a2.json" --format json -o busy.json
grep -q '"busy": 1.8' busy.json || fail "no leg load in the comparison file"
grep -q '"noisy": 6' busy.json || fail "comparison file does not count the metrics under load"
grep -q '"trusted": true' busy.json || fail "one metric's load withheld every verdict"
"$MEMPATH" report busy.json --format term >again.txt || fail "report of the comparison exited $?"
cmp -s busy.txt again.txt || fail "report differs from compare: $(diff busy.txt again.txt | head)"

# rounds: ab's records name them; +20% in every B leg, round 2 30% higher on
# both sides, round 3's B leg under load but reading as the others do (kept:
# the load does not explain it), round 5's B leg under load and 30% slower
# for it (left out: the load explains its ratio)
set -- "$d/cmp-r1-a.json" "$d/cmp-r1-b.json" "$d/cmp-r2-b.json" "$d/cmp-r2-a.json" \
	"$d/cmp-r3-a.json" "$d/cmp-r3-b.json" "$d/cmp-r4-b.json" "$d/cmp-r4-a.json" \
	"$d/cmp-r5-a.json" "$d/cmp-r5-b.json"
"$MEMPATH" compare "$@" >r.txt || fail "rounds exited $?: $(cat r.txt)"
head -1 r.txt | grep -q '^compare: stock r1 \[A\] .* -> patched r1 \[B\] .* -> patched r2 \[B\]' ||
	fail "round legs: $(head -1 r.txt)"
grep -q '^metric  *stock  *patched  *change' r.txt || fail "rounds table heading: $(grep '^metric' r.txt)"
row=$(grep '^cpu.first_touch touch_rate pages=4k' r.txt)
echo "$row" | grep -q ' WIN: 1 of 5 rounds left out, their legs'"'"' load differed (round 5: 1.8 other CPUs busy during patched r5, 0.1 during stock r5)$' ||
	fail "rounds verdict: $row"
echo "$row" | grep -Eq ' \+(19|20)\.[0-9]%  ' || fail "the change is not the rounds' +20%: $row"
echo "$row" | grep -q ' 24/24 ' || fail "samples of the rounds used: $row"
grep -Eq '^cpu.first_touch .*(touch_rate pages=thp|random_after).* (WIN|LOSS)' r.txt &&
	fail "a metric without an effect read WIN or LOSS: $(cat r.txt)"
# the comparison file says rounds
"$MEMPATH" compare --legs ABBAABBA "$d/cmp-r1-a.json" "$d/cmp-r1-b.json" "$d/cmp-r2-b.json" \
	"$d/cmp-r2-a.json" "$d/cmp-r3-a.json" "$d/cmp-r3-b.json" "$d/cmp-r4-b.json" "$d/cmp-r4-a.json" \
	--format json -o r.json || fail "rounds as json exited $?"
grep -q '"rounds": 4' r.json || fail "the comparison file does not say rounds"
# compare --rounds pairs files that carry no record: the same as the records say
"$MEMPATH" compare --rounds --legs ABBAABBAAB "$@" >r2.txt || fail "--rounds exited $?"
grep '^cpu.first_touch touch_rate pages=4k' r2.txt | grep -q ' WIN: 1 of 5 rounds left out' ||
	fail "--rounds verdict: $(grep 'touch_rate pages=4k' r2.txt)"
expect_fail 2 "$MEMPATH" compare --rounds "$d/cmp-aa-1.json" "$d/cmp-aa-2.json" "$d/cmp-aa-3.json"
grep -q 'not pairs' err.txt || fail "odd files with --rounds: $(cat err.txt)"
expect_fail 2 "$MEMPATH" compare --rounds --legs AABB "$d/cmp-aa-1.json" "$d/cmp-aa-2.json" \
	"$d/cmp-aa-3.json" "$d/cmp-effect-b.json"
grep -q 'round 1 has 2 A and 0 B' err.txt || fail "a round of two A legs: $(cat err.txt)"
exit 0
