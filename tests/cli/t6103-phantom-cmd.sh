# phantom around any command; --gpu without a GPU is a skip; bad input.
. "$top/tests/cli/lib.sh"
"$MEMPATH" phantom --settle 2 -q -o c.json -- sh -c 'echo hello; exit 4' >c.txt 2>c.err ||
	fail "command run exited $?: $(cat c.txt c.err)"
grep -q '^result: PASS$' c.txt || fail "not PASS: $(cat c.txt)"
grep -q '^hello$' c.err || fail "the command's output should go to stderr"
grep -q '"status": "exit 4"' c.json || fail "command status not recorded"
# --gpu: a skip with the reason where there is no GPU; where there is one the
# host memory the CUDA context took must come back (PASS).
"$MEMPATH" phantom --gpu 256M --hold 0 --settle 3 -q -o g.json >g.txt 2>&1
rc=$?
if grep -q '^result: SKIP$' g.txt; then
	[ $rc -eq 0 ] || fail "gpu skip exited $rc"
	"$MEMPATH" report g.json --format csv | awk -F, 'NR == 2 { exit !($2 == "skip") }' ||
		fail "skip not recorded"
else
	grep -q '^result: PASS$' g.txt || fail "gpu child: $(cat g.txt)"
fi
expect_fail 2 "$MEMPATH" phantom
expect_fail 2 "$MEMPATH" phantom --cpu 1G -- true
expect_fail 2 "$MEMPATH" phantom --cpu 0
expect_fail 2 "$MEMPATH" phantom --gpu 1G --detach
expect_fail 2 "$MEMPATH" phantom --cpu 1G --settle -1
expect_fail 2 "$MEMPATH" phantom --cpu 1G --holder gpu:lots
expect_fail 2 "$MEMPATH" phantom --cpu 100T
exit 0
