# basics: sysinfo prints the fingerprint, as text and JSON
# test: sanitizers (C paths the unit tests miss: tools/sanitize-pick.sh)
. "$top/tests/cli/lib.sh"
"$MEMPATH" sysinfo >s.txt || fail "sysinfo"
for k in kernel cpu memory numa knobs thp_enabled noise; do
	grep -q "$k" s.txt || fail "sysinfo lacks $k"
done
"$MEMPATH" sysinfo --json >s.json || fail "sysinfo --json"
head -c 1 s.json | grep -q '{' || fail "sysinfo --json is not an object"
grep -q '"knobs"' s.json || fail "sysinfo --json lacks knobs"
grep -q '"gpu"' s.json || fail "sysinfo --json lacks the gpu part (devices or the reason there are none)"
expect_fail 2 "$MEMPATH" sysinfo --bogus
exit 0
