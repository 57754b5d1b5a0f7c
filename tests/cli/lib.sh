# tests/cli/lib.sh - sourced by CLI tests: $MEMPATH is the binary under test.
set -u
fail() {
	echo "FAIL: $*" >&2
	exit 1
}
skip() {
	echo "$*"
	exit 77
}
# expect_fail CODE CMD...: CMD exits CODE and prints exactly one stderr line.
expect_fail() {
	want=$1
	shift
	"$@" >out.txt 2>err.txt
	rc=$?
	[ $rc -eq "$want" ] || fail "'$*' exited $rc, expected $want; stderr: $(cat err.txt)"
	[ "$(wc -l <err.txt)" -eq 1 ] || fail "'$*' should print one error line, printed: $(cat err.txt)"
	grep -q '^mempath: error: ' err.txt || fail "'$*' error line lacks the prefix: $(cat err.txt)"
}
# csv_value FILE PROBE METRIC LABELS: median from `mempath report --format csv`.
csv_value() {
	"$MEMPATH" report "$1" --format csv |
		awk -F, -v p="$2" -v m="$3" -v l="$4" '
		{ line = $0; n = split(line, f, ","); }
		/"/ { # rebuild quoted labels field
			q = index(line, "\""); r = index(substr(line, q + 1), "\"") + q
			lab = substr(line, q + 1, r - q - 1)
			rest = substr(line, r + 2); split(rest, g, ",")
			split(substr(line, 1, q - 1), h, ",")
			if (h[1] == p && h[3] == m && lab == l) print g[4]
			next }
		$1 == p && $3 == m && $4 == l { print $8 }'
}
# running_here PATTERN: the pids of processes whose command line matches
# PATTERN and whose working directory is this test's own (other checkouts
# may run the same tests at the same time).
running_here() {
	here=$(pwd -P)
	for p in $(pgrep -f "$1"); do
		[ "$(readlink "/proc/$p/cwd" 2>/dev/null)" = "$here" ] && echo "$p"
	done
}
