# phantom PASSes with its 96 MiB on the memory-only node (numa_hit there grew
# by at least that many pages).
set -u
. "$(dirname "$0")/lib.host.sh"
m=$(cat node)
[ "$(cat phantom.rc)" = 0 ] || fail "exit $(cat phantom.rc): $(tail -n 8 phantom.txt)"
grep -q PASS phantom.txt || fail "no PASS: $(tail -n 8 phantom.txt)"
b=$(awk '$1 == "numa_hit" { print $2 }' before) a=$(awk '$1 == "numa_hit" { print $2 }' after)
[ $((a - b)) -ge 24576 ] || fail "numa_hit on node $m grew by $((a - b)) pages, want >= 24576 (96 MiB)"
echo "note: node $m numa_hit +$((a - b)) pages"
