# The study's guest half (tests/lab/study.sh boots the tiered machine with
# each kernel in turn): the plan directory the boot before left (/carry/plan;
# on the first boot the plan file alone), the tiering check's setting
# (demotion on, NUMA balancing scanning early, a balloon keeping node 1 just
# above its high watermark, as tiering.sh), then `mempath plan --boot`: the
# legs this kernel may run, and the kernel to boot next in boot-next.
echo 1 >/sys/kernel/mm/numa/demotion_enabled
d=/sys/kernel/debug/sched/numa_balancing
[ -d $d ] && echo 0 >$d/scan_delay_ms && echo 100 >$d/scan_period_min_ms && echo 5000 >$d/hot_threshold_ms
sysctl -w kernel.numa_balancing=0
cp -r /carry/plan plan || { echo "no /carry/plan: boot the study through tests/lab/study.sh"; exit 1; }
high=$(awk '/^Node/ { n = $2 } n == "1," && $1 == "high" { s += $2 } END { print int(s * 4 / 1024) }' /proc/zoneinfo)
target=$((high + 12))
echo "$(uname -r): node 1 high watermark $high MiB, balloon target $target MiB free" >>plan/balloon.log
numactl --cpunodebind=0 --membind=1 tierload fill 1 $target 2 96 >fill.txt 2>&1 &
fillpid=$!
i=0
while [ $i -lt 600 ] && [ "$(awk '$3 == "MemFree:" { print int($4 / 1024) }' /sys/devices/system/node/node1/meminfo)" -gt $((target + 16)) ]; do
	i=$((i + 1))
	sleep 0.1
done
grep -E '^(pgdemote|pgpromote|numa_hint|pgmigrate_success)' /proc/vmstat >vmstat.before
mempath plan --boot plan/study.plan >plan.out 2>plan.err
echo $? >plan.rc
grep -E '^(pgdemote|pgpromote|numa_hint|pgmigrate_success)' /proc/vmstat >vmstat.after
kill $fillpid
[ -f tierload-policy.log ] && sort tierload-policy.log | uniq -c >>"plan/policy-$(uname -r).log"
cat plan.out
case $(cat plan.rc) in 0 | 3 | 4) exit 0 ;; *) exit 1 ;; esac
