# plan: three variants in place end in the study of their legs (the
# variants grouped by name, the plan's baseline first, each other variant
# against it), the same tables as compare --study of the stored legs.
. "$top/tests/cli/lib.sh"
cat >s.plan <<'PLAN'
command probe cpu.first_touch size=4M pages=4k touch=write --reps 3
baseline b
legs a b c c a b b c a
variant a
  env MEMPATH_T4153=a
variant b
  env MEMPATH_T4153=b
variant c
  env MEMPATH_T4153=c
PLAN
"$MEMPATH" plan -o out s.plan >plan.txt 2>plan.err
rc=$?
# 0, or 3 when this busy machine gave no trusted verdict: never 1 or 2
[ $rc -eq 0 ] || [ $rc -eq 3 ] || fail "plan exited $rc: $(tail -n 3 plan.err)"
[ -s out/study.md ] && [ -s out/study.json ] || fail "no study.md/study.json: $(ls out)"
[ "$(ls out/leg-*-r*-*.json | wc -l)" -eq 9 ] || fail "expected 9 legs: $(ls out)"
for v in a c; do
	grep -q "^  $v against b: " plan.txt || fail "no '$v against b' comparison: $(cat plan.txt)"
done
grep -q '^  b against' plan.txt && fail "the baseline b was compared against another: $(cat plan.txt)"
grep -q '^study: 3 variants (b, a, c), baseline b; 3 rounds$' out/study.md ||
	fail "study.md: not 3 variants with the baseline b: $(sed -n 3p out/study.md)"
grep -q '^  "baseline": "b",$' out/study.json || fail "study.json: the baseline is not b"
# the stored legs give the same comparisons without re-running anything
"$MEMPATH" compare --study --baseline b out/leg-*-r*-*.json >cmp.txt 2>cmp.err
rc2=$?
[ $rc2 -eq $rc ] || fail "compare --study exited $rc2, plan $rc: $(cat cmp.err)"
grep '^  [a-c] against b: ' plan.txt >want.txt
grep '^  [a-c] against b: ' cmp.txt >got.txt
cmp -s want.txt got.txt || fail "compare --study differs from the plan's study: $(diff want.txt got.txt)"
exit 0
