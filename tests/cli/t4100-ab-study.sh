# ab with N variants (docs/design.md §5.22): three variants of a fake
# llama-bench (tg128 1.5x faster with --mmap 0) in rounds of one leg each
# (ABC CBA BCA ...), auto rounds until every variant's metrics are decided
# against the baseline, the family held by Holm; study.md and study.json;
# compare --study of the stored legs gives the same tables; findings takes
# the study; a 2x2 factorial with known main effects and no interaction
# reports them, and a planted interaction; bad input refused before any
# setup runs. The workloads are fakes that read no knob, and the machine is
# shared with benches that rewrite the THP mode under any leg: --allow-diff
# keeps their verdicts (a knob changing is no cause of these results).
# test: alone (judges legs measured here, whose load a test beside it would change: tests/run.sh)
. "$top/tests/cli/lib.sh"
fake="$top/tests/data/fake-llama-bench.sh"
"$MEMPATH" ab --primary 'work.wrap:tokens_per_s' --variant 'base:echo "base $MP_V" >>trail' \
	--variant 'same:echo same >>trail' --variant 'fast:echo fast >>trail' --variant-env base:MP_V=one \
	--variant-args 'base:--mmap 1' --variant-args 'same:--mmap 1' --variant-args 'fast:--mmap 0' \
	--expect-diff llama.use_mmap --allow-diff -o st -- wrap -n 3 -- sh "$fake" {} -o json >st.txt 2>st.err ||
	verdict_ok $? st.txt || fail "ab of three variants: $(tail -3 st.err)"
grep -q '^ab: rounds auto: 4, then more .* order abba (ABCCBABCAACBCABBAC' st.err ||
	fail "the schedule of three variants: $(grep '^ab: rounds' st.err)"
[ "$(head -6 trail | tr '\n' ' ')" = "base one same fast fast same base one " ] ||
	fail "setups of the first two rounds: $(head -6 trail | tr '\n' ' ')"
[ "$(tail -1 trail)" = "base one" ] || fail "the restore is not the baseline's setup: $(tail -2 trail)"
for f in study.md study.json leg-1-r1-base.json leg-3-r1-fast.json leg-4-r2-fast.json restore.log; do
	[ -s "st/$f" ] || fail "st/$f missing: $(ls st | head)"
done
[ ! -e st/compare.json ] || fail "a study wrote compare.json"
tr -d ' \n' <st/leg-4-r2-fast.json | grep -q '"leg":{"variant":"C","label":"fast"' ||
	fail "leg 4's record: $(tr -d ' \n' <st/leg-4-r2-fast.json | grep -o '"leg":{[^}]*}')"
tr -d ' \n' <st/leg-4-r2-fast.json | grep -q '"round":2' || fail "leg 4 is not round 2"
grep -Eq '^  fast: work.wrap tokens_per_s test=tg128 1\.5[0-9]x base \[1\.[0-9]+, 1\.[0-9]+\] WIN$' st.txt ||
	fail "fast's line: $(grep '^  fast' st.txt)"
grep -q '^  same: work.wrap tokens_per_s test=tg128 .* \(SAME\|~\)$' st.txt ||
	fail "same's line: $(grep '^  same' st.txt)"
grep -q '^family: 2 comparisons (each variant against the baseline), Holm' st.txt || fail "no family line"
for t in 'Table 1: metrics' 'Table 1b: per iteration' 'Table 2: counter deltas'; do
	grep -q "^$t" st.txt || fail "no '$t' in the table"
done
grep -q '^note: rounds auto: stopped after [0-9]* of at most 12 rounds' st.txt || fail "no rounds note"
grep -q '"schema": "mempath/study/1"' st/study.json || fail "study.json schema"
# the stored legs compared again at the alpha the last look spent: the same tables
alpha=$(grep -m1 '"alpha":' st/study.json | sed 's/.*: *//; s/,$//')
pct=$(awk -v a="$alpha" 'BEGIN { printf "%.17g", 100 * a }')
"$MEMPATH" compare --study --alpha "$pct" --margin 5 --primary 'work.wrap:tokens_per_s' \
	--expect-diff llama.use_mmap,wrap.args --allow-diff st/leg-*.json --format md -o again.md 2>c.err ||
	verdict_ok $? again.md || fail "compare --study: $(cat c.err)"
grep -v '^note: rounds auto' st/study.md >ab.md
diff ab.md again.md >d.txt || fail "compare --study differs from ab's study: $(head d.txt)"
grep -q '^fast: work.wrap tokens_per_s test=tg128 .* WIN$' c.err || fail "compare's answer: $(cat c.err)"
"$MEMPATH" compare --study st/leg-*.json --format html -o s.html 2>/dev/null
grep -q '</b> per variant (' s.html && grep -q '<svg' s.html || fail "html: no bars per variant"
"$MEMPATH" compare --study --baseline fast --all-pairs st/leg-*.json --format json -o s.json 2>/dev/null
grep -q '"baseline": "fast"' s.json && grep -q '"comparisons": 3' s.json || fail "--baseline/--all-pairs: $(head -30 s.json)"
"$MEMPATH" findings st >f.md || fail "findings of a study exited $?"
grep -q '(fast against base)' f.md && grep -q 'study of 3 variants' f.md || fail "findings: $(head -20 f.md)"

# a label from a file with an escape sequence and a line break reaches the
# terminal as text, never as either
mkdir forged
for f in st/leg-*.json; do
	sed 's/"label": *"base"/"label": "E\\u001b[2J\\nforged"/' "$f" >"forged/${f#st/}"
done
"$MEMPATH" compare --study --allow-diff forged/leg-*.json >forged.txt 2>/dev/null
grep -q 'baseline E\\x1b\[2J\\nforged' forged.txt || fail "the forged label: $(head -1 forged.txt)"
! grep -q "$(printf '\033')" forged.txt && ! grep -q '^forged' forged.txt || fail "an escape or a line reached the terminal"

# factors: k x nb, 2x2, k=pg 1.2x and nb=2 1.1x multiplied (no interaction),
# their levels' setups writing files; then x1.3 more where both (a planted
# interaction), k's levels as words for the command (--level-args) and nb's
# as environment (--level-env)
cat >fac.sh <<'EOF'
tg=$(awk -v k="${1:-$(cat k)}" -v nb="${NB:-$(cat nb)}" -v p="$(cat plant 2>/dev/null || echo 1)" \
	'BEGIN { x = 10 * k * nb; if (k > 1 && nb > 1) x *= p; printf "%.4f", x }')
printf '[{"build_commit": "fake", "model_type": "fake", "n_threads": 2, "use_mmap": true, "n_prompt": 0, "n_gen": 128, "n_depth": 0, "avg_ns": 1000, "stddev_ns": 1, "avg_ts": %s, "stddev_ts": 0.001, "samples_ns": [1000], "samples_ts": [%s]}]\n' "$tg" "$tg"
EOF
for plant in 1 1.3; do
	echo $plant >plant
	if [ $plant = 1 ]; then
		set -- --level 'k=base:echo 1 >k' --level 'k=pg:echo 1.2 >k' --level 'nb=0:echo 1 >nb' \
			--level 'nb=2:echo 1.1 >nb'
	else
		rm k nb
		set -- --level-args 'k=base:1' --level-args 'k=pg:1.2' --level-env 'nb=0:NB=1' \
			--level-env 'nb=2:NB=1.1'
	fi
	"$MEMPATH" ab --primary 'work.wrap:tokens_per_s' --factor k=base,pg --factor nb=0,2 "$@" \
		--allow-diff -o "fac$plant" -- wrap -n 3 -- sh fac.sh >fac.txt 2>fac.err ||
		verdict_ok $? fac.txt || fail "ab --factor $*: $(tail -3 fac.err)"
	if [ $plant = 1 ]; then
		grep -Eq ' k=pg +1\.20x .* effect +$' fac.txt || fail "k's effect: $(grep -A4 '^Factors' fac.txt)"
		grep -Eq ' nb=2 +1\.10x .* effect +$' fac.txt || fail "nb's effect: $(grep -A4 '^Factors' fac.txt)"
		grep -Eq '^ +k=pg x nb=2 +1\.00x .* no interaction +$' fac.txt ||
			fail "no interaction: $(grep -A4 '^Factors' fac.txt)"
	else # the main effects average over the other factor: 1.2 x sqrt(1.3)
		grep -Eq ' k=pg +1\.37x .* effect +$' fac.txt || fail "k's effect: $(grep -A4 '^Factors' fac.txt)"
		grep -Eq ' k=pg x nb=2 +1\.30x +\[[0-9.]+, [0-9.]+\] +[0-9]+ +interaction +$' fac.txt ||
			fail "planted interaction: $(grep -A4 '^Factors' fac.txt)"
	fi
done
grep -q '^k=base,nb=0: \|variants (k=base,nb=0, k=base,nb=2, k=pg,nb=0, k=pg,nb=2)' fac.txt ||
	fail "the factors' variants: $(head -2 fac.txt)"

# two --variant are today's A and B: compare.json, the A/B table
"$MEMPATH" ab --primary 'work.wrap:tokens_per_s' --variant stock --variant nommap --variant-args 'stock:--mmap 1' \
	--variant-args 'nommap:--mmap 0' --expect-diff llama.use_mmap --allow-diff -o two -- wrap -n 3 -- sh "$fake" {} -o json \
	>two.txt 2>two.err || verdict_ok $? two.txt || fail "ab of two variants: $(tail -3 two.err)"
[ -s two/compare.json ] && [ ! -e two/study.json ] && [ -s two/leg-2-r1-nommap.json ] ||
	fail "two variants are not an A/B: $(ls two | head)"
grep -q '^work.wrap tokens_per_s test=tg128 .* WIN (primary)' two.txt || fail "the A/B table: $(grep tg128 two.txt)"

# refused before any setup runs
: >trail
expect_fail 2 "$MEMPATH" ab --variant 'x:echo x >>trail' --a true -o no1 -- wrap -n 3 -- true
grep -q 'no --a, --b' err.txt || fail "--variant with --a: $(cat err.txt)"
expect_fail 2 "$MEMPATH" ab --variant x --variant y --variant z --variant-env w:K=V -o no2 -- wrap -n 3 -- true
grep -q "no variant 'w'" err.txt || fail "--variant-env of no variant: $(cat err.txt)"
expect_fail 2 "$MEMPATH" ab --variant x --variant y --variant z --legs ABC -o no3 -- wrap -n 3 -- true
expect_fail 2 "$MEMPATH" ab --factor k=a,b --level 'k=c:true' -o no4 -- wrap -n 3 -- true
grep -q "names no factor's level" err.txt || fail "--level typo: $(cat err.txt)"
expect_fail 2 "$MEMPATH" ab --factor k=a,b --level-env 'k=c:X=1' -o no4e -- wrap -n 3 -- true
grep -q "names no factor's level" err.txt || fail "--level-env typo: $(cat err.txt)"
expect_fail 2 "$MEMPATH" ab --variant x --variant y --variant z --level-args 'k=a:1' -o no4a -- wrap -n 3 -- true
grep -q "are for --factor" err.txt || fail "--level-args without --factor: $(cat err.txt)"
expect_fail 2 "$MEMPATH" ab --factor k=a -o no5 -- wrap -n 3 -- true
expect_fail 2 "$MEMPATH" ab --variant x --variant 'y:echo y >>trail' --variant z -o no6 -- wrap -n 3 -- true
grep -q 'nothing puts it back' err.txt || fail "no restore: $(cat err.txt)"
expect_fail 2 "$MEMPATH" compare --baseline x st/leg-1-r1-base.json st/leg-2-r1-same.json
expect_fail 2 "$MEMPATH" compare --study --format csv st/leg-1-r1-base.json st/leg-2-r1-same.json
[ ! -s trail ] || fail "a refused ab ran a setup: $(cat trail)"
exit 0
