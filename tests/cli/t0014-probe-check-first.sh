# a probe's options that do not fit together are a usage error before
# anything is measured (struct probe's check, kit/probe.h): probe, fleet and
# ab exit 2 with one error line naming the option, write no results file,
# run no setup command, and collect no fingerprint; the same probe with
# fitting options still runs.
# test: sanitizers (C paths the unit tests miss: tools/sanitize-pick.sh)
. "$top/tests/cli/lib.sh"
none_written() { # none_written WHAT
	[ -z "$(ls -A out)" ] || fail "$1 wrote: $(ls out)"
	[ ! -e ran ] || fail "$1 ran a setup command"
	! grep -q 'fingerprint' err.txt || fail "$1 collected the fingerprint first: $(cat err.txt)"
}
mkdir out
for bad in batch=0 block=1000 kv=4K\ block=8K weights=4K pages=4k,thp; do
	# shellcheck disable=SC2086
	(cd out && expect_fail 2 "$MEMPATH" probe work.decode $bad -o x.json)
	mv out/err.txt out/out.txt . 2>/dev/null
	grep -q "^mempath: error: work.decode: " err.txt || fail "probe $bad: $(cat err.txt)"
	none_written "probe work.decode $bad"
done
grep -q 'pages takes one choice' err.txt || fail "the reason is not said: $(cat err.txt)"
# gpu.l2's (its check runs without a GPU too)
for bad in chunk=10 sizes=700K threads=x; do
	(cd out && expect_fail 2 "$MEMPATH" probe gpu.l2 $bad -o x.json)
	mv out/err.txt out/out.txt . 2>/dev/null
	grep -q "^mempath: error: gpu.l2: " err.txt || fail "probe gpu.l2 $bad: $(cat err.txt)"
	none_written "probe gpu.l2 $bad"
done
(cd out && expect_fail 2 "$MEMPATH" probe work.decode --opt batch=0)
mv out/err.txt out/out.txt . 2>/dev/null
grep -q 'batch must be at least 1' err.txt || fail "--opt batch=0: $(cat err.txt)"
none_written "probe --opt batch=0"
(cd out && expect_fail 2 "$MEMPATH" fleet --only work.decode batch=0 -o f.json)
mv out/err.txt out/out.txt . 2>/dev/null
none_written "fleet --only work.decode batch=0"
expect_fail 2 "$MEMPATH" ab --a 'touch ran' --b 'touch ran' -o out/ab -- probe work.decode batch=0 --reps 6
[ ! -e out/ab ] || [ -z "$(ls -A out/ab)" ] || fail "ab wrote: $(ls out/ab)"
rm -rf out/ab
none_written "ab -- probe work.decode batch=0"
# the check lets fitting options through: the probe runs and writes its file
"$MEMPATH" probe work.decode weights=4M kv=64K batch=1 steps=2 --reps 1 --warmups 0 -q \
	-o ok.json >ok.txt 2>ok.err || fail "a fitting work.decode failed: $(tail -3 ok.err)"
[ -s ok.json ] || fail "no results file from a fitting work.decode"
exit 0
