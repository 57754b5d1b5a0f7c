# A real mpirun of `mempath fleet` with three ranks on this host (the
# smallest latency sweep, six samples): the fleet file has three nodes, each
# with a valid run whose probe ran, named host:rank; the ranks took turns
# (each rank's run starts no earlier than the previous rank's ended).
. "$top/tests/cli/lib.sh"
command -v mpirun >/dev/null 2>&1 || skip "no mpirun here (make deps installs openmpi-bin)"
"$MEMPATH" fleet --only nosuch >/dev/null 2>err.txt
if ! grep -q "unknown probe 'nosuch'" err.txt; then
	fail "the probe list is not checked before MPI: $(cat err.txt)"
fi
"$MEMPATH" fleet merge >/dev/null 2>&1 # merge works without MPI
# one node without a launcher (an MPI singleton), or the build says it has no MPI
small="--only cpu.latency --quick --reps 6 --warmups 0 sizes=16K pages=4k order=random"
"$MEMPATH" fleet $small -o x.json </dev/null >nompi.txt 2>&1
if grep -q 'built without MPI' nompi.txt; then
	# the binary's own words: MPI=0 asked for, or no mpicc found
	skip "mempath was $(grep -o 'built without MPI: [^:]*' nompi.txt | head -1)"
fi
rm -f x.json
mpirun --allow-run-as-root --oversubscribe -np 3 "$MEMPATH" fleet $small -o fleet.json \
	>out.txt 2>err.txt
rc=$?
[ $rc -eq 0 ] || fail "mpirun exit $rc; $(tail -20 err.txt)"
grep -q 'mempath fleet: 3 nodes in 1 group, 0 flagged' out.txt || fail "summary: $(head -3 out.txt)"
"$MEMPATH" report fleet.json --format csv >fleet.csv || fail "report of the fleet file failed"
host=$(hostname)
for r in 0 1 2; do
	grep -q "^$host:$r,1,metric,cpu.latency,load_latency,\"size=16K,pages=4k,order=random,stride_bytes=64\",ns,[0-9]" \
		fleet.csv || fail "node $host:$r has no latency: $(cat fleet.csv)"
done
[ "$(grep -c '"schema": "mempath/run/1"' fleet.json)" -eq 3 ] || fail "not three runs in the file"
[ "$(grep -c '"status": "ok"' fleet.json)" -ge 3 ] || fail "a probe did not run ok"
grep -q '"mpi": "Open MPI\|"mpi": "MPICH' fleet.json || fail "the MPI library is not recorded"
# turns: start and end times of the three runs, in rank order
grep -o '"\(start\|end\)_time": "[^"]*"' fleet.json | sed 's/.*: "//; s/"$//' >times.txt
[ "$(wc -l <times.txt)" -eq 6 ] || fail "expected six times: $(cat times.txt)"
awk 'NR % 2 == 1 && NR > 1 && $0 < prev_end { bad = 1 } NR % 2 == 0 { prev_end = $0 }
     END { exit bad }' times.txt || fail "ranks of one host measured at once: $(cat times.txt)"
exit 0
