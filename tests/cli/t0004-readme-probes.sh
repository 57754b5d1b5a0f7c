# The README's probe table is what `mempath list` prints: every probe, in
# order, with its suites and summary.
. "$top/tests/cli/lib.sh"
"$MEMPATH" list >list.txt || fail "list exited $?"
awk 'NR > 1 && !NF { exit } NR > 1 { n = $1; s = $2; $1 = ""; $2 = ""; sub(/^ +/, ""); print n "|" s "|" $0 }' \
	list.txt >from-list.txt
sed -n 's/^| `\([a-z0-9_.]*\)` | \([^|]*\) | \(.*\) |$/\1|\2|\3/p' "$top/README.md" >from-readme.txt
[ -s from-list.txt ] || fail "no probes in the list"
cmp -s from-list.txt from-readme.txt ||
	fail "README's probe table differs from 'mempath list': $(diff from-list.txt from-readme.txt)"
exit 0
