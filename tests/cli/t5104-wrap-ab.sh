# ab runs wrap legs: its -o/--label go to wrap, not to the workload after
# "--" (whose own -o is allowed); the legs (four a side) compare like probes.
# test: sanitizers (C paths the unit tests miss: tools/sanitize-pick.sh)
. "$top/tests/cli/lib.sh"
"$MEMPATH" ab --legs ABABABAB --a-env MP_FAKE_SCALE=1 --b-env MP_FAKE_SCALE=1.5 -o abw \
	-- wrap -n 6 -- sh "$top/tests/data/fake-lines.sh" -o ignored >ab.txt 2>ab.err ||
	verdict_ok $? ab.txt || fail "ab exited: $(cat ab.err)"
for f in leg-1-A.json leg-2-B.json leg-3-A.json compare.md; do
	[ -s "abw/$f" ] || fail "abw/$f missing"
done
grep -q '"label": "B"' abw/leg-2-B.json || fail "leg label not given to wrap"
grep -q '"command": "sh .*fake-lines.sh -o ignored"' abw/leg-1-A.json || fail "workload args changed"
grep -q '^work.wrap bandwidth .* WIN$' ab.txt || fail "no WIN for the 1.5x leg: $(cat ab.txt)"
exit 0
