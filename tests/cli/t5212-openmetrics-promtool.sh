# promtool check metrics (Prometheus's own parser and linter) on every
# OpenMetrics text the fixtures give: report of each results file in
# docs/results/ and tests/data/ that reads, compare of the A/A and effect
# pairs, a fleet, and check --textfile. Skips where promtool is absent.
. "$top/tests/cli/lib.sh"
command -v promtool >/dev/null 2>&1 || skip "no promtool here (apt-get install prometheus)"
n=0
lint() { # NAME: the text in om.txt
	promtool check metrics <om.txt >lint.txt 2>&1 || fail "promtool on $1: $(head -5 lint.txt)"
	n=$((n + 1))
}
for f in "$top"/docs/results/*.json "$top"/tests/data/*.json; do
	"$MEMPATH" report "$f" --format openmetrics >om.txt 2>/dev/null || continue
	lint "report $f"
done
[ $n -ge 20 ] || fail "only $n results files gave OpenMetrics"
d=$top/tests/data
"$MEMPATH" compare "$d/cmp-aa-1.json" "$d/cmp-effect-b.json" --format openmetrics >om.txt 2>err.txt
[ -s om.txt ] || fail "compare wrote nothing: $(cat err.txt)"
lint "compare cmp-aa-1 cmp-effect-b"
mkdir nodes
cp "$top/docs/results/vm-quick-2026-11-30.json" nodes/vm.json
sed 's/"hostname": *"vm"/"hostname": "node-2"/' nodes/vm.json >nodes/node-2.json
"$MEMPATH" fleet merge nodes/vm.json nodes/node-2.json -o fleet.json >/dev/null 2>err.txt ||
	fail "fleet merge: $(cat err.txt)"
"$MEMPATH" report fleet.json --format openmetrics >om.txt 2>err.txt || fail "fleet report: $(cat err.txt)"
lint "fleet report"
for f in check-h200-2026-12-01 vm-quick-2026-11-30; do
	"$MEMPATH" check --textfile om.txt "$top/docs/results/$f.json" >/dev/null 2>&1
	[ -s om.txt ] || fail "check --textfile wrote nothing for $f"
	lint "check --textfile $f"
	rm om.txt
done
echo "promtool check metrics: $n texts clean"
exit 0
