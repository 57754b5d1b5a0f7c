# wrap recorded where the command's memory was: its 48 MiB on the node
# numactl bound it to, next to nothing elsewhere.
set -u
. "$(dirname "$0")/lib.host.sh"
m=$(cat node)
csv wrap.json wrap.csv
grep -q '^work.wrap,ok,passes,' wrap.csv || fail "tierload's passes not read: $(cat wrap.csv)"
on=$(median wrap.csv node_mem node=$m)
[ -n "$on" ] || fail "no node_mem for node $m: $(grep node_mem wrap.csv)"
awk -v v="$on" 'BEGIN { exit !(v >= 48 && v < 64) }' || fail "node_mem node=$m is $on MiB, want 48-64"
awk -F, -v n="node=$m" '$3 == "node_mem" && $4 != n && $8 > 8 { print; bad = 1 } END { exit bad }' wrap.csv ||
	fail "memory on other nodes than $m"
echo "note: $on MiB on node $m (numa_maps, sampled)"
