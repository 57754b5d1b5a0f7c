# gpu: without a usable GPU every GPU probe is skipped with a reason, exit 0
. "$top/tests/cli/lib.sh"
if "$MEMPATH" sysinfo --json | grep -q '"devices"'; then
	skip "a GPU is present here; the registry test runs the GPU probes"
fi
n=0
for p in $("$MEMPATH" list | awk '$2 ~ /gpu|p2p/ { print $1 }'); do
	"$MEMPATH" probe "$p" --quick >"$p.txt" 2>&1 || fail "$p exited non-zero without a GPU"
	grep -q "skip: ." "$p.txt" || fail "$p not skipped with a reason: $(cat "$p.txt")"
	n=$((n + 1))
done
[ $n -gt 0 ] || skip "no GPU probes in this build yet"
exit 0
