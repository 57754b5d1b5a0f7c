# basics: a mistyped command, probe, option or choice is one error line,
# exit 2, that names the nearest known name; a word near nothing gets no guess
# test: sanitizers (C paths the unit tests miss: tools/sanitize-pick.sh)
. "$top/tests/cli/lib.sh"
check() { # check MEANT CMD...: one error line, exit 2, suggesting MEANT
	meant=$1
	shift
	expect_fail 2 "$@"
	grep -q "did you mean '$meant'?" err.txt || fail "'$*' should suggest '$meant': $(cat err.txt)"
}
check run "$MEMPATH" rn
check compare "$MEMPATH" compre
check --suite "$MEMPATH" run --sutie quick
check quick "$MEMPATH" run --suite quik
check html "$MEMPATH" report --format hmtl x.json
check cpu.latency "$MEMPATH" probe cpu.latncy
check cpu.stream "$MEMPATH" run --only cpu.stram
check cpu.stream "$MEMPATH" help cpu.stram
check pages "$MEMPATH" probe cpu.latency pags=4k
check thp "$MEMPATH" probe cpu.latency pages=4k,tph
expect_fail 2 "$MEMPATH" frobnicate
grep -q "did you mean" err.txt && fail "no guess for a word near nothing: $(cat err.txt)"
# a 300-character unknown name through every kind of door: one error line,
# a non-zero exit, never a signal (issue 44: suggest.c crashed on 65+)
long=$(printf 'x%.0s' $(seq 300))
long_fail() {
	"$@" >out.txt 2>err.txt
	rc=$?
	[ $rc -ne 0 ] && [ $rc -lt 128 ] || fail "'$1 ... ${2:-}' with a 300-character name exited $rc: $(head -c 200 err.txt)"
	[ "$(wc -l <err.txt)" -eq 1 ] || fail "'$1 ... ${2:-}' with a 300-character name should print one error line: $(head -c 400 err.txt)"
	grep -q '^mempath: error: ' err.txt || fail "'$1 ... ${2:-}' error line lacks the prefix: $(head -c 200 err.txt)"
}
long_fail "$MEMPATH" "$long"
long_fail "$MEMPATH" help "$long"
long_fail "$MEMPATH" probe "$long"
long_fail "$MEMPATH" report x --format "$long"
long_fail "$MEMPATH" run --suite "$long"
# a history to query (a query of none stops before the metric is read)
"$MEMPATH" history --db h.db add "$top/tests/data/cmp-aa-1.json" >/dev/null || fail "history add"
long_fail "$MEMPATH" history --db h.db trend "$(printf '*%.0s' $(seq 300))x:*"
exit 0
