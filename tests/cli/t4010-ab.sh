# ab: legs A, B, A' with harmless setup commands and environments; the
# restore runs at the end; results, logs and the comparison land in DIR.
# test: alone (judges legs measured here, whose load a test beside it would change: tests/run.sh)
. "$top/tests/cli/lib.sh"
"$MEMPATH" ab --legs ABA --a 'echo "A $MP_T" >>trail' --b 'echo "B $MP_T" >>trail' --restore 'echo restored >>trail' \
	--a-env MP_T=one --b-env MP_T=two --label-a stock --label-b patched -o abdir --export-summary s.csv \
	-- probe cpu.first_touch size=16M touch=write pages=4k --reps 6 --warmups 0 >ab.txt 2>ab.err
rc=$?
verdict_ok $rc ab.txt || fail "ab exited $rc: $(cat ab.err; tail -n 1 ab.txt)"
[ "$(cat trail)" = "A one
B two
A one
restored" ] || fail "setup/restore order: $(cat trail)"
for f in leg-1-stock.json leg-2-patched.json leg-3-stock.json leg-1-setup.log leg-2-setup.log \
	leg-3-setup.log restore.log compare.md compare.json; do
	[ -s "abdir/$f" ] || fail "abdir/$f missing"
done
head -1 s.csv | grep -q '^metric,unit,better,verdict,control,median_a,median_b,change,ci95_lo,ci95_hi,p,leg1_median,leg1_mean,leg1_sigma' ||
	fail "ab --export-summary: $(head -2 s.csv)"
grep -q '^"cpu.first_touch touch_rate pages=4k,touch=write",GiB/s,higher,' s.csv || fail "no touch_rate row: $(cat s.csv)"
grep -q '^# env MP_T=two' abdir/leg-2-setup.log || fail "setup log lacks the env"
grep -q '"label": "patched"' abdir/leg-2-patched.json || fail "leg 2 not labelled"
# a mechanism column comes where a counter moved with a verdict (§5.15)
grep -q '^| metric | stock | patched | stock again | \(mechanism | \)\{0,1\}verdict |$' abdir/compare.md ||
	fail "compare.md layout: $(grep '^| metric' abdir/compare.md | head -1)"
grep -q '^cpu.first_touch touch_rate pages=4k,touch=write' ab.txt || fail "no table printed"
grep -q '^summary: \|^no trusted verdict (' ab.txt || fail "no summary printed"
# A results file never makes ab run anything: the legs' argv are data.
grep -q '"argv"' abdir/leg-1-stock.json || fail "leg argv not recorded"
exit 0
