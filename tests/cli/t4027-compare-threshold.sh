# compare --rounds (docs/design.md §5.18, §5.19): the practical threshold
# is the 1% minimum (or --threshold), not the rounds' spread, which every
# format still reports beside it; the A and
# B columns are the geometric means of the rounds' medians, whose ratio is
# the change; a CI more than 10x wide is "too wide to say" with the reason,
# in term, md, json and html, and `report` of the JSON says the same. The
# legs are results files written here, one metric each.
# test: sanitizers (C paths the unit tests miss: tools/sanitize-pick.sh)
. "$top/tests/cli/lib.sh"

# leg FILE LABEL V...: a results file whose one metric has samples V...
# (each begun a second after the last: legs are different runs, §5.16)
n=0
leg() {
	f=$1 label=$2
	n=$((n + 1))
	shift 2
	samples=$(echo "$@" | sed 's/ /, /g')
	cat >"$f" <<EOF
{
 "schema": "mempath/run/1",
 "tool": {"name": "mempath", "version": "0.1.0", "git": "fixture"},
 "argv": ["mempath", "probe", "t.rate"],
 "label": "$label", "suite": null,
 "start_time": "2026-12-01T00:00:$(printf %02d $n)Z", "end_time": "2026-12-01T00:01:00Z",
 "interrupted": false,
 "host": {"hostname": "fixture", "kernel": "6.1.0-test", "cpu": {"model": "Fixture CPU"}},
 "knobs": {"start": {"thp_enabled": "madvise"}, "end": {"thp_enabled": "madvise"}},
 "probes": [
  {"name": "t.rate", "status": "ok", "reason": null, "params": {},
   "metrics": [
    {"name": "rate", "unit": "GB/s", "better": "higher", "labels": {},
     "samples": [$samples]}]}]
}
EOF
}

# eight rounds ABBA, the level swinging 90-120, B above A by +8.5% and +1.5%
# by turns: each round's ratio cancels the level, and the CI of their mean
# (+4.9% [+1.9, +8.1]) clears the 1% minimum: a WIN; the ratios' own spread
# (3.6%) is reported (json round_noise), not a second threshold
set --
legs=""
k=0
for level in 100 120 90 112 95 118 92 108; do
	k=$((k + 1))
	ratio=$([ $((k % 2)) = 1 ] && echo 1.085 || echo 1.015)
	b=$(awk -v l="$level" -v r="$ratio" 'BEGIN { printf "%.3f", l * r }')
	for v in $([ $((k % 2)) = 1 ] && echo "A B" || echo "B A"); do
		x=$([ "$v" = A ] && echo "$level" || echo "$b")
		f=r$k$(echo "$v" | tr AB ab).json
		leg "$f" "$v" $(awk -v x="$x" 'BEGIN { printf "%.3f %.3f %.3f %.3f", x, x + 0.1, x - 0.1, x }')
		set -- "$@" "$f"
		legs=$legs$v
	done
done
"$MEMPATH" compare --rounds --legs $legs "$@" >swing.txt 2>swing.err || fail "compare --rounds exited $?: $(cat swing.txt)"
grep -q '^metric .* threshold  *p(adj)' swing.txt || fail "no threshold column: $(grep '^metric' swing.txt)"
grep -q "^change: the geometric mean of the rounds' ratios of medians" swing.txt ||
	fail "what the change is computed from is not said: $(head -5 swing.txt)"
row=$(grep '^t.rate rate' swing.txt)
# (the rounds swing +1% to +8% with tight legs: more than their own noise
# explains, so the WIN says it depends on load, §5.10)
echo "$row" | grep -Eq ' \+4\.9%  *\[\+1\.9, \+8\.1\]%  *1\.0% min .* WIN(: \+1% to \+8% across rounds .*)?$' ||
	fail "a change above A in every round, its CI clear of 1%, is no WIN or names another threshold: $row"
# the columns: geometric means of the rounds' medians (103.8 and 108.9 GB/s;
# pooled medians would be 104.0 and 109.1)
echo "$row" | grep -q 'rate  *103\.8 GB/s  *108\.9 GB/s ' || fail "the medians are not the rounds' geometric means: $row"
"$MEMPATH" compare --rounds --legs $legs "$@" --format json -o swing.json 2>/dev/null || fail "json exited $?"
grep -q '"threshold_from": "min"' swing.json || fail "json lacks threshold_from: $(grep threshold_from swing.json)"
grep -q '"round_noise": 0\.03' swing.json || fail "json lacks the rounds' spread: $(grep round_noise swing.json)"
grep -q '"change_from": "the geometric mean' swing.json || fail "json lacks change_from"
"$MEMPATH" report swing.json >again.txt 2>/dev/null || fail "report of the comparison exited $?"
cmp -s swing.txt again.txt || fail "report differs from compare: $(diff swing.txt again.txt | head)"
"$MEMPATH" compare --rounds --legs $legs "$@" --format md >swing.md 2>/dev/null || fail "md exited $?"
grep -q '| 1\.0% min |' swing.md || fail "md threshold cell: $(grep '^| t.rate' swing.md)"

# two rounds that disagree tenfold: too wide to say
leg w1a.json A 100.0 100.1 99.9 100.0
leg w1b.json B 30.0 30.1 29.9 30.0
leg w2b.json B 400.0 400.1 399.9 400.0
leg w2a.json A 100.0 100.1 99.9 100.0
set -- w1a.json w1b.json w2b.json w2a.json
"$MEMPATH" compare --rounds --legs ABBA "$@" >wide.txt 2>wide.err || fail "compare exited $?: $(cat wide.txt)"
row=$(grep '^t.rate rate' wide.txt)
echo "$row" | grep -q ' too wide to say  .* ~: too wide to say: the 95% CI \[[-+0-9.]*, [-+0-9.e]*\]% spans a factor of [0-9.e+]* (more than 10) over 2 rounds$' ||
	fail "a CI a factor beyond 10 is not too wide to say: $row"
tail -1 wide.txt | grep -q 'no geomean' || fail "a CI too wide to say counted in the geomean: $(tail -1 wide.txt)"
for fmt in md html json; do
	"$MEMPATH" compare --rounds --legs ABBA "$@" --format $fmt -o wide.$fmt 2>/dev/null || fail "$fmt exited $?"
done
grep -q 'too wide to say: the 95% CI' wide.md || fail "md lacks the reason"
grep -q '| too wide to say |' wide.md || fail "md CI cell: $(grep '^| t.rate' wide.md | tail -1)"
grep -q 'too wide to say' wide.html || fail "html lacks it"
grep -q '"ci_too_wide": true' wide.json || fail "json lacks ci_too_wide"
"$MEMPATH" report wide.json >wide2.txt 2>/dev/null || fail "report exited $?"
cmp -s wide.txt wide2.txt || fail "report differs: $(diff wide.txt wide2.txt | head)"
exit 0
