# ab --rounds: the legs in rounds of an A and a B leg, ABBA..., each leg's
# setup run before it, the samples split over the rounds, every leg's file
# kept with its round; the comparison judges round by round (docs/design.md
# §5.10). Plans that cannot give a verdict are refused before any setup.
# test: alone (judges legs measured here, whose load a test beside it would change: tests/run.sh)
. "$top/tests/cli/lib.sh"
leg="probe cpu.first_touch size=16M touch=write pages=4k --warmups 0"
# shellcheck disable=SC2086 # the leg command is words
"$MEMPATH" ab --rounds 3 --a 'echo A >>trail' --b 'echo B >>trail' --restore 'echo restored >>trail' \
	--label-a stock --label-b patched -o rdir -- $leg --reps 9 >ab.txt 2>ab.err
rc=$?
verdict_ok $rc ab.txt || fail "ab --rounds exited $rc: $(cat ab.err; tail -n 1 ab.txt)"
[ "$(tr '\n' ' ' <trail)" = "A B B A A B restored " ] || fail "setups not ABBAAB: $(cat trail)"
n=0
for f in leg-1-r1-stock leg-2-r1-patched leg-3-r2-patched leg-4-r2-stock leg-5-r3-stock leg-6-r3-patched; do
	n=$((n + 1))
	[ -s "rdir/$f.json" ] || fail "rdir/$f.json missing: $(ls rdir)"
	grep -q "\"round\": $(((n + 1) / 2))" "rdir/$f.json" || fail "$f.json does not record its round"
	# --reps 9 over 3 rounds: 3 counted samples a leg
	# (the labels field holds a comma: n is the 8th)
	samples=$("$MEMPATH" report "rdir/$f.json" --format csv | awk -F, '$3 == "touch_rate" { print $8 }')
	[ "$samples" = 3 ] || fail "$f.json: $samples samples, not 3"
done
grep -q '"rounds": 3' rdir/compare.json || fail "compare.json is not a comparison of rounds"
grep -q '^ab: 3 rounds, order abba (ABBAAB)' ab.err || fail "the schedule is not said: $(cat ab.err)"
# (a mechanism column where a counter moved with a verdict: a busy machine's)
grep -q '^metric  *stock  *patched  *change  *95% CI  *threshold  *p(adj)  *n A/B  *\(mechanism  *\)\{0,1\}verdict$' ab.txt ||
	fail "rounds table: $(grep '^metric' ab.txt)"
# the samples of the rounds used: all, or those of the rounds not left out
# for their legs' load (none left: UNSTABLE, saying so)
grep -q '^cpu.first_touch touch_rate pages=4k,touch=write .* 9/9 ' ab.txt ||
	grep -q '^cpu.first_touch touch_rate pages=4k,touch=write .* [36]/[36] ' ab.txt ||
	grep -q "^cpu.first_touch touch_rate pages=4k,touch=write .* UNSTABLE: [01] rounds\{0,1\} left to judge, 2 needed: [23] of 3 rounds left out, their legs' load differed" ab.txt ||
	fail "samples per verdict: $(grep 'touch_rate' ab.txt)"
if [ $rc -eq 3 ]; then
	tail -1 ab.txt | grep -q '^no trusted verdict (' || fail "exit 3 without saying so: $(tail -1 ab.txt)"
else
	tail -1 ab.txt | grep -q '^summary: ' || fail "summary: $(tail -1 ab.txt)"
fi

# random order: recorded with its seed, the same seed the same schedule
# shellcheck disable=SC2086
"$MEMPATH" ab --rounds 2 --order random --seed 7 -o rnd -- $leg --reps 6 >rnd.out 2>rnd.err
rc=$?
verdict_ok $rc rnd.out || fail "ab --order random exited $rc: $(cat rnd.err)"
grep -q '"order": "random"' rnd/leg-1-r1-*.json || fail "random order not recorded"
grep -q '"seed": 7' rnd/leg-1-r1-*.json || fail "seed not recorded"
s1=$(sed -n 's/^ab: 2 rounds, order random (\([AB]*\), seed 7)$/\1/p' rnd.err)
[ -n "$s1" ] || fail "random schedule not said: $(cat rnd.err)"

# refused before any setup: too few samples a leg, rounds with --legs
rm -f trail
# shellcheck disable=SC2086
expect_fail 2 "$MEMPATH" ab --rounds 4 --a 'echo A >>trail' -o no1 -- $leg --reps 8
grep -q 'give 2 a leg; a leg of a round needs at least 3' err.txt || fail "split refusal: $(cat err.txt)"
# shellcheck disable=SC2086
expect_fail 2 "$MEMPATH" ab --rounds 3 --legs ABAB -o no3 -- $leg --reps 9
[ ! -f trail ] || fail "a refused plan ran a setup: $(cat trail)"
exit 0
