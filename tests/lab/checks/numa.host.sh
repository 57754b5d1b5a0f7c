# cpu.numa's matrix has one cell per (CPU node, memory node), memory-only
# nodes among the destinations, every cell's pages on the node asked for.
set -u
. "$(dirname "$0")/lib.host.sh"
"$MEMPATH" report numa.json --format csv >numa.csv || fail "results rejected: $(cat log)"
set -- $LAB_NODES
n=$# cpu=0
for k in "$@"; do [ "$k" = c ] && cpu=$((cpu + 1)); done
cells=$(grep -c '^cpu.numa,ok,latency,' numa.csv)
[ "$cells" = $((cpu * n)) ] || fail "latency matrix has $cells cells, want $cpu x $n: $(cat numa.csv)"
[ "$(grep -c '^cpu.numa,ok,read_bw,' numa.csv)" = "$cells" ] || fail "read_bw cells differ from latency's"
[ "$(grep -c '^cpu.numa,ok,placement,' numa.csv)" = "$cells" ] || fail "placement cells: $(grep placement numa.csv)"
bad=$(grep '^cpu.numa,ok,placement,' numa.csv | grep -v ',%,none,1,100,') && fail "placement under 100%: $bad"
i=0
for k in "$@"; do
	want=cpu+memory
	[ "$k" = m ] && want=memory-only
	tr -d ' \n' <numa.json | grep -q "\"node\":$i,\"kind\":\"$want\"" || fail "node $i is not $want in extra.topology"
	for c in $(seq 0 $((n - 1))); do
		eval "kc=\${$((c + 1))}"
		[ "$kc" = c ] || continue
		grep -q "^cpu.numa,ok,latency,\"cpu_node=$c,mem_node=$i,pages=thp\"" numa.csv || fail "no cell $c -> $i"
	done
	i=$((i + 1))
done
# a guest under 512 MiB of RAM has THP off: the results say so
thp=$(cat "$LAB_GUEST/thp")
case $thp in *"[never]"*)
	grep -q '"thp_note": "transparent_hugepage/enabled is never' numa.json || fail "THP never, no thp_note" ;;
*) grep -q '"thp_note"' numa.json && fail "thp_note with THP $thp" ;;
esac
echo "note: $cpu x $n matrix, placement 100%"
