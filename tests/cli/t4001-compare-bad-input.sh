# compare: missing, corrupt, truncated and mistyped files, bad options: one
# error line naming the thing, exit 2.
# test: sanitizers (C paths the unit tests miss: tools/sanitize-pick.sh)
. "$top/tests/cli/lib.sh"
d=$top/tests/data
a=$d/cmp-aa-1.json
expect_fail 2 "$MEMPATH" compare "$a" "$d/cmp-corrupt.json"
grep -q "cmp-corrupt.json' is not valid JSON" err.txt || fail "corrupt: $(cat err.txt)"
expect_fail 2 "$MEMPATH" compare "$a" "$d/cmp-truncated.json"
grep -q "cmp-truncated.json' is not valid JSON" err.txt || fail "truncated: $(cat err.txt)"
expect_fail 2 "$MEMPATH" compare "$d/cmp-badtype.json" "$a"
grep -q 'samples holds something that is not a number' err.txt || fail "bad type: $(cat err.txt)"
expect_fail 2 "$MEMPATH" compare "$a" nonexistent.json
grep -q "cannot open 'nonexistent.json'" err.txt || fail "missing file: $(cat err.txt)"
mkdir -p adir
expect_fail 2 "$MEMPATH" compare "$a" adir
grep -q "'adir' is a directory" err.txt || fail "a directory is not named as one: $(cat err.txt)"
expect_fail 2 "$MEMPATH" compare "$a"
expect_fail 2 "$MEMPATH" compare "$a" "$a" --legs AAB
expect_fail 2 "$MEMPATH" compare "$a" "$a" --legs AA
expect_fail 2 "$MEMPATH" compare "$a" "$a" --threshold much
expect_fail 2 "$MEMPATH" compare "$a" "$a" --control 'cpu.x,pages'
expect_fail 2 "$MEMPATH" compare "$a" "$a" --format xml
# A control, primary or knob that names nothing is a typo that would remove a check.
expect_fail 2 "$MEMPATH" compare "$a" "$d/cmp-aa-2.json" --control 'cpu.frist_touch,pages=thp'
grep -q "matches no metric" err.txt || fail "control typo: $(cat err.txt)"
expect_fail 2 "$MEMPATH" compare "$a" "$d/cmp-aa-2.json" --primary 'cpu.first_touch:nosuch'
expect_fail 2 "$MEMPATH" compare "$a" "$d/cmp-aa-2.json" --expect-diff thp_enabld
grep -q "is not a knob" err.txt || fail "knob typo: $(cat err.txt)"
[ ! -s out.txt ] || fail "output on bad input: $(cat out.txt)"
exit 0
