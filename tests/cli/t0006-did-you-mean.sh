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
exit 0
