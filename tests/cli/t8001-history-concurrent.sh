# history: two processes adding to one history at once, from its creation
# on, lose nothing: 2 x 15 runs added one process each, every one kept once
. "$top/tests/cli/lib.sh"
d=$top/tests/data
export MEMPATH_HISTORY=$PWD/h.db
for i in $(seq 10 39); do
	sed -e "s|\"start_time\": \"2026-11-30T00:00:00Z\"|\"start_time\": \"2026-12-01T00:00:${i}Z\"|" \
		-e "s|\"label\": \"stock\"|\"label\": \"run-$i\"|" "$d/cmp-aa-1.json" >"r$i.json"
	grep -q "run-$i" "r$i.json" || fail "the fixture changed"
done
# --wait 60: the point is that nothing is lost, not how fast a shared
# machine's disk lets the other writer finish (the default waits 5 s)
adder() { # adder FIRST LAST: one 'history add' per file, as runs finishing one by one would
	for i in $(seq "$1" "$2"); do
		"$MEMPATH" history --wait 60 add "r$i.json" >>"add-$1.out" 2>>"add-$1.err" || echo "r$i" >>"failed-$1"
	done
}
adder 10 24 &
a=$!
adder 25 39 &
b=$!
wait $a
wait $b
[ ! -f failed-10 ] && [ ! -f failed-25 ] ||
	fail "adds failed: $(cat failed-* add-*.err 2>/dev/null | head -5)"
"$MEMPATH" history list --limit 1000 --format csv >list.csv || fail "list"
[ "$(tail -n +2 list.csv | wc -l)" -eq 30 ] || fail "expected 30 runs kept: $(tail -n +2 list.csv | wc -l)"
for i in $(seq 10 39); do
	[ "$(grep -c ",run-$i," list.csv)" -eq 1 ] || fail "run-$i kept $(grep -c ",run-$i," list.csv) times"
done
"$MEMPATH" history trend cpu.stream:copy_bw --format csv >t.csv || fail "trend"
[ "$(tail -n +2 t.csv | wc -l)" -eq 30 ] || fail "the metrics of some runs are missing: $(wc -l <t.csv)"
exit 0
