# basics: --help, --version, help for every command and probe, bad commands
# test: sanitizers (C paths the unit tests miss: tools/sanitize-pick.sh)
. "$top/tests/cli/lib.sh"
"$MEMPATH" --help | grep -q '^usage: mempath' || fail "--help"
"$MEMPATH" --version | grep -q '^mempath [0-9]' || fail "--version"
for c in run probe list help sysinfo report compare ab wrap phantom doctor fleet check; do
	"$MEMPATH" help $c | grep -q "usage: mempath $c" || fail "help $c"
	"$MEMPATH" $c --help | grep -q "usage: mempath $c" || fail "$c --help"
done
n=0
for p in $("$MEMPATH" list | awk 'NR > 1 && /^[a-z0-9]+\.[a-z0-9_]+ / { print $1 }'); do
	"$MEMPATH" help "$p" | grep -q "^$p - " || fail "help $p"
	"$MEMPATH" help "$p" | grep -q "options" || fail "help $p has no options section"
	n=$((n + 1))
done
[ $n -ge 7 ] || fail "list shows only $n probes"
expect_fail 2 "$MEMPATH" frobnicate
expect_fail 2 "$MEMPATH" help nosuchthing
"$MEMPATH" >/dev/null 2>&1 && fail "no command should be an error"
exit 0
