# A real fault: five ranks of `mempath fleet` on this host, the last started
# through a launcher that disables transparent huge pages for its process
# tree (prctl PR_SET_THP_DISABLE; an MPMD mpirun line). Its MADV_HUGEPAGE
# first touch faults every 4 KiB page (262144 faults/GiB against 512): that
# node, and no other, is flagged on cpu.first_touch, and the fleet exits 1.
# Only the fault counts and THP backing decide here (no timing): a busy
# machine may slow a healthy rank, but not change its faults.
. "$top/tests/cli/lib.sh"
command -v mpirun >/dev/null 2>&1 || skip "no mpirun here (make deps installs openmpi-bin)"
cc=$(command -v cc || command -v gcc) || skip "no C compiler for the launcher"
thp=/sys/kernel/mm/transparent_hugepage/enabled
[ -r $thp ] || skip "no THP here ($thp)"
grep -q '\[never\]' $thp && skip "THP is off on this machine: nothing to plant"
"$cc" -O2 -o thp-off "$top/tests/data/thp-off.c" || fail "cannot build the launcher"
args="fleet --only cpu.first_touch --quick --reps 6 --warmups 0 pages=thp touch=write size=32M"
"$MEMPATH" $args -o x.json </dev/null >nompi.txt 2>&1
if grep -q 'built without MPI' nompi.txt; then
	skip "mempath was $(grep -o 'built without MPI: [^:]*' nompi.txt | head -1)"
fi
mpirun --allow-run-as-root --oversubscribe -np 4 "$MEMPATH" $args -o fleet.json : \
	-np 1 ./thp-off "$MEMPATH" $args -o fleet.json >out.txt 2>err.txt
rc=$?
[ $rc -eq 1 ] || fail "mpirun exit $rc, expected 1 (a node flagged); $(tail -20 err.txt)"
"$MEMPATH" report fleet.json --format csv >fleet.csv
host=$(hostname)
grep -q "^$host:4,1,metric,cpu.first_touch,minor_faults,\"pages=thp,touch=write\",/GiB,262144,512,.*,yes," \
	fleet.csv || fail "the THP-less node is not flagged on its faults: $(grep ':4,' fleet.csv)"
grep -q "^FLAGGED  $host:4\$" out.txt || fail "not in the report: $(cat out.txt)"
# no other node: flagged on the first touch's faults, or on anything while
# its faults match the group's (a flag from timing alone would be the busy
# machine, and is reported as such)
bad=$(grep -v "^$host:4," fleet.csv | grep ',metric,cpu.first_touch,minor_faults,.*,yes,')
[ -z "$bad" ] || fail "another node flagged on its faults: $bad"
others=$(grep -c "^FLAGGED" out.txt)
if [ "$others" -ne 1 ]; then
	echo "note: $((others - 1)) healthy node(s) also flagged on timing (a busy machine):"
	grep -v "^$host:4," fleet.csv | grep ',yes,' | head -5
	grep -v "^$host:4," fleet.csv | grep ',yes,' | grep -qv ',cpu.first_touch,\(touch_rate\|random_after\),' &&
		fail "a healthy node flagged on something other than timing"
fi
exit 0
