# The tiering A/B (two DRAM nodes and a slow one): numa_balancing 0 (A) vs 2
# (B), demotion on, a cold balloon keeping CPU 1's node 1 full, the workload on
# CPU 1 bound to nodes 1 and 2: what node 1 cannot take lands on node 2; under
# mode 2 it is hot there and promoted, and reclaim demotes the balloon's cold
# pages to make room. Rounds of wrap legs; the counters per configuration in the
# comparison's report.
echo 1 >/sys/kernel/mm/numa/demotion_enabled
d=/sys/kernel/debug/sched/numa_balancing
# scan early and often: the runs are seconds long (TCG)
[ -d $d ] && echo 0 >$d/scan_delay_ms && echo 100 >$d/scan_period_min_ms && echo 5000 >$d/hot_threshold_ms
sysctl -w kernel.numa_balancing=0
# the balloon: node 1 kept 12 MiB above its high watermark (below it kswapd
# would demote all the time), node 2 at 96 MiB free or more
high=$(awk '/^Node/ { n = $2 } n == "1," && $1 == "high" { s += $2 } END { print int(s * 4 / 1024) }' /proc/zoneinfo)
target=$((high + 12))
echo "node 1 high watermark $high MiB, balloon target $target MiB free" >plan
numactl --cpunodebind=0 --membind=1 tierload fill 1 $target 2 96 >fill.txt 2>&1 &
fillpid=$!
# node 1 full: the balloon has done its work (it never leaves it for long)
i=0
while [ $i -lt 600 ] && [ "$(awk '$3 == "MemFree:" { print int($4 / 1024) }' /sys/devices/system/node/node1/meminfo)" -gt $((target + 16)) ]; do
	i=$((i + 1))
	sleep 0.1
done
cat /sys/devices/system/node/node*/meminfo | grep MemFree >>plan
grep -E '^(pgdemote|pgpromote|numa_hint|pgmigrate_success)' /proc/vmstat >vmstat.before
cat /proc/zoneinfo >zoneinfo
# the counters and free memory once a second through the A/B, for the reader
(while :; do
	echo "t $(cut -d' ' -f1 /proc/uptime) $(grep -E '^(pgdemote_kswapd|pgpromote_success|numa_hint_faults) ' /proc/vmstat | tr '\n' ' ')$(grep -h MemFree /sys/devices/system/node/node*/meminfo | awk '{ printf "n%s %d ", $2, $4 / 1024 }')"
	sleep 1
done) >trace &
tracepid=$!
mempath ab --a 'sysctl -w kernel.numa_balancing=0' --b 'sysctl -w kernel.numa_balancing=2' \
	--label-a nb0 --label-b nb2 --rounds 2 --expect-diff numa_balancing -o ab \
	-- wrap -n 3 --sample-ms 250 -- numactl --balancing --cpunodebind=1 --membind=1,2 tierload 96 2 >ab.txt 2>&1
echo $? >ab.rc
grep -E '^(pgdemote|pgpromote|numa_hint|pgmigrate_success)' /proc/vmstat >vmstat.after
kill $fillpid $tracepid
mempath report ab/compare.json >report.txt 2>&1
mempath report ab/compare.json --format md >report.md 2>&1
exit 0
