# NUMA: cpu.numa skips with a reason on one node (and measures it with
# min_nodes=1); cpu.stream's policy is applied and verified from numa_maps;
# work.decode records tokens/s per iteration.
# test: sanitizers (C paths the unit tests miss: tools/sanitize-pick.sh)
. "$top/tests/cli/lib.sh"
nodes=$(ls -d /sys/devices/system/node/node[0-9]* 2>/dev/null | wc -l)
"$MEMPATH" probe cpu.numa --quick --reps 3 --warmups 1 -o n.json >n.txt 2>&1 || fail "cpu.numa exited $?"
if [ "$nodes" -le 1 ]; then
	grep -q 'skip: 1 NUMA node with memory here' n.txt || fail "no skip reason: $(cat n.txt)"
fi
"$MEMPATH" probe cpu.numa --quick --reps 3 --warmups 1 min_nodes=1 mem_nodes=0 cpu_nodes=0 -o n1.json >n1.txt 2>&1 ||
	fail "cpu.numa min_nodes=1 exited $?: $(cat n1.txt)"
"$MEMPATH" report n1.json --format csv >n1.csv || fail "cpu.numa results rejected"
grep -q '^cpu.numa,ok,latency,"cpu_node=0,mem_node=0,pages=thp",ns,lower,3,' n1.csv || fail "latency: $(cat n1.csv)"
grep -q '^cpu.numa,ok,read_bw,"cpu_node=0,mem_node=0,pages=thp,threads=[0-9]*",GB/s,higher,3,' n1.csv || fail "read_bw"
grep -q '^cpu.numa,ok,placement,"cpu_node=0,mem_node=0,pages=thp",%,none,1,100,' n1.csv || fail "placement"
grep -q '"kind": "cpu+memory"' n1.json || fail "topology not recorded"
"$MEMPATH" probe cpu.stream size=32M threads=1 kernels=read pages=4k policy=bind nodes=0 --reps 3 --warmups 1 \
	-o s.json >s.txt 2>&1 || fail "cpu.stream policy=bind exited $?: $(cat s.txt)"
"$MEMPATH" report s.json --format csv | grep -q '^cpu.stream,ok,pages_on_node,"node=0,pages=4k,threads=1",%,none,1,100,' ||
	fail "placement not verified: $(cat s.txt)"
grep -q '"policy_obtained": "bind:0"' s.json || fail "policy_obtained: $(grep policy s.json)"
"$MEMPATH" probe cpu.stream size=32M threads=1 kernels=read pages=4k policy=bind,interleave --reps 3 \
	-o s2.json >s2.txt 2>&1
grep -q 'fail: policy takes one choice' s2.txt || fail "two policies accepted: $(cat s2.txt)"
"$MEMPATH" probe work.decode --quick --reps 3 --warmups 1 -o d.json >d.txt 2>&1 || fail "work.decode exited $?"
"$MEMPATH" report d.json --format csv >d.csv || fail "work.decode results rejected"
grep -q '^work.decode,ok,tokens_per_s,,tok/s,higher,3,' d.csv || fail "tokens_per_s: $(cat d.csv)"
grep -q '"steps_used"' d.json || fail "steps_used not recorded"
exit 0
