# ab --rounds auto (docs/design.md §5.13): four rounds, then a look every
# second round at the alpha that look may spend, until every metric that
# matters is decided (WIN, LOSS, SAME within --margin), --max-rounds, or a
# round that would pass --budget; the comparison says why the rounds ended
# and at what alpha. The legs are a fake llama-bench (tg128 1.5x faster with
# --mmap 0, pp512 the same), so the verdicts do not depend on this machine.
# test: alone (judges legs measured here, whose load a test beside it would change: tests/run.sh)
# test: sanitizers (C paths the unit tests miss: tools/sanitize-pick.sh)
. "$top/tests/cli/lib.sh"
fake="$top/tests/data/fake-llama-bench.sh"
"$MEMPATH" ab --rounds auto --primary 'work.wrap:tokens_per_s' --a-args '--mmap 1' --b-args '--mmap 0' \
	--expect-diff llama.use_mmap -o mm -- wrap -n 3 -- sh "$fake" {} -o json >ab.txt 2>ab.err ||
	verdict_ok $? ab.txt || fail "ab --rounds auto: $(tail -3 ab.err)"
grep -q '^ab: rounds auto: 4, then more until every metric that matters is decided, at most 12' ab.err ||
	fail "the plan is not said: $(grep '^ab:' ab.err | head -3)"
grep -q '^ab: after round 4: 2 of 2 metrics decided (alpha 0.00069 at this look); done$' ab.err ||
	fail "the look after round 4: $(grep '^ab: after' ab.err)"
[ "$(ls mm/leg-*.json | wc -l)" -eq 8 ] || fail "legs run: $(ls mm)"
grep -Eq '^work.wrap tokens_per_s test=tg128 .* WIN \(primary\)(: .* across rounds .*)?$' ab.txt || fail "tg128: $(grep tg128 ab.txt)"
grep -q '^work.wrap tokens_per_s test=pp512 .* SAME (primary): within +-5.0%: the 99.9% CI \[+0.0, +0.0\]%$' ab.txt ||
	fail "pp512: $(grep 'tokens_per_s test=pp512' ab.txt)"
grep -q '  99.9% CI  ' ab.txt || fail "the CI heading is not the look's level: $(grep '^metric' ab.txt)"
grep -q '^note: rounds auto: stopped after 4 of at most 12 rounds: every metric that matters decided (2); this look tested at alpha 0.00069' ab.txt ||
	fail "why the rounds ended: $(grep '^note' ab.txt)"
grep -q '"same": [1-9]' mm/compare.json || fail "SAME not counted in the file"
grep -q '"margin": 0.05' mm/compare.json || fail "the margin is not in the file"
"$MEMPATH" report mm/compare.json >again.txt || fail "report of the comparison exited $?"
cmp -s ab.txt again.txt || fail "report differs from ab: $(diff ab.txt again.txt | head)"

# the default design is rounds auto (A/B/A' has too few legs for a verdict:
# docs/design.md §5.4): the same ab without --rounds runs and decides alike
"$MEMPATH" ab --primary 'work.wrap:tokens_per_s' --a-args '--mmap 1' --b-args '--mmap 0' \
	--expect-diff llama.use_mmap -o def -- wrap -n 3 -- sh "$fake" {} -o json >def.txt 2>def.err ||
	verdict_ok $? def.txt || fail "ab without --rounds: $(tail -3 def.err)"
grep -q '^ab: rounds auto: 4, then more' def.err || fail "the default is not rounds auto: $(grep '^ab:' def.err | head -3)"
grep -q '^work.wrap tokens_per_s test=tg128 .* WIN (primary)$' def.txt || fail "default tg128: $(grep tg128 def.txt)"

# the budget bounds the rounds, the first ones too (t4031): where the 4
# rounds fit a 3 s budget a look ends them before --max-rounds, saying so
# (legs of three 0.02 s sleeps: 10 rounds here; legs of `true`, 0.06 s, ran
# all 12); where the pilot (wrap's runs) or a leg shows they cannot, ab
# refuses or stops there (exit 1), saying how long they would take
"$MEMPATH" ab --rounds auto --budget 3 -o bud -- wrap -n 3 -- sleep 0.02 >b.txt 2>b.err
rc=$?
if [ $rc -eq 0 ]; then
	grep -q '^note: rounds auto: stopped after \([4-9]\|1[01]\) of at most 12 rounds: another round would pass the budget of 3 s' b.txt ||
		fail "budget: $(grep '^note' b.txt)"
else
	[ $rc -eq 1 ] && grep -q 'a verdict needs would take about [0-9]* s at this pace\|a verdict needs would take about [0-9]* s (a pilot before the first setup\|(a pilot, before the first setup) did not end within' b.err ||
		fail "ab --budget exited $rc: $(tail -3 b.err)"
fi
# at most --max-rounds (and ab takes compare's --load-diff)
"$MEMPATH" ab --rounds auto --max-rounds 5 --load-diff 2 -o max -- wrap -n 3 -- sh -c 'echo v $$' >m.txt 2>m.err ||
	verdict_ok $? m.txt || fail "ab --max-rounds: $(tail -3 m.err)"
[ "$(ls max/leg-*.json | wc -l)" -le 10 ] || fail "more than 5 rounds: $(ls max)"
grep -q '"busy_cpus": 2' max/compare.json || fail "--load-diff 2 not in the comparison"

# refused before anything runs
expect_fail 2 "$MEMPATH" ab --legs ABA --max-rounds 6 -o no1 -- wrap -n 6 -- true
grep -q 'are for --rounds auto' err.txt || fail "auto options without auto: $(cat err.txt)"
expect_fail 2 "$MEMPATH" ab --rounds auto --legs ABA -o no2 -- wrap -n 6 -- true
expect_fail 2 "$MEMPATH" ab --rounds auto --max-rounds 3 -o no3 -- wrap -n 6 -- true
[ ! -d no1 ] && [ ! -d no2 ] || fail "a refused ab left a directory"
# --reps given, too few for the first 4 rounds: auto chose the rounds, so
# each leg runs the 3 a round needs, and says so (--rounds N refuses: t4014);
# one row of the probe (4 KiB pages, stores) is enough for that: its nine
# rows took 19 s of this test's 36 here, one row 5 s
"$MEMPATH" ab --rounds auto --max-rounds 4 --load-diff 2 -o few -- probe cpu.first_touch size=2M pages=4k touch=write --reps 8 \
	>f.txt 2>f.err || verdict_ok $? f.txt || fail "auto rounds with --reps 8: $(tail -3 f.err)"
grep -q '^ab: --reps 8 over the first 4 rounds gives 2 a leg; each leg runs 3' f.err ||
	fail "the raise is not said: $(grep '^ab:' f.err | head -3)"
tr -d ' \n' <few/leg-1-r1-A.json | grep -q '"argv":\["probe",[^]]*"--reps","3"\]' ||
	fail "the leg did not run 3 samples: $(tr -d ' \n' <few/leg-1-r1-A.json | grep -o '"argv":\[[^]]*\]')"
# a probe as typed, without --reps, runs: its default samples (cpu.stream's
# 10) over the first 4 rounds would give 2 a leg, so each leg gets the 3 a
# round needs (docs/design.md §5.10); 4 KiB pages only, half its rows
"$MEMPATH" ab --rounds auto --max-rounds 4 --load-diff 2 -o typed -- probe cpu.stream threads=1 size=4M kernels=read pages=4k >t.txt 2>t.err ||
	verdict_ok $? t.txt || fail "ab --rounds auto of a probe as typed: $(tail -3 t.err)"
[ "$(ls typed/leg-*.json | wc -l)" -eq 8 ] || fail "legs of the probe as typed: $(ls typed)"
tr -d ' \n' <typed/leg-1-r1-A.json | grep -q '"argv":\["probe",[^]]*"--reps","3"\]' ||
	fail "the leg did not run 3 samples: $(tr -d ' \n' <typed/leg-1-r1-A.json | grep -o '"argv":\[[^]]*\]')"
exit 0
