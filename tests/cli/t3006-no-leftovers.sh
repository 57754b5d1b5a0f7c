# no process a command starts outlives it: what ab's setup and restore
# commands, wrap's workload and phantom's command or holder leave running
# (in the background, after setsid, after a double fork, holding a log open)
# is stopped and named when the command ends, and all of it, hog and holder
# too, is ended when the command is killed with SIGKILL (the watchdog of
# src/base/guard.c).
# test: long (started first where no earlier run's times order the pool: tests/run.sh)
# test: waits (the children's exits after each interrupt: a lane beside the pool, tests/run.sh)
. "$top/tests/cli/lib.sh"
fast="wrap -n 6 -- true"
# settled CMD...: what CMD prints (processes still there) is empty, waited
# for up to 60 s: processes that were sent their signal, or whose watchdog
# ends them once it sees the command gone, take their own time to exit on
# a busy machine (under a load of ~20 on 2 CPUs 10 s was not enough); only
# one that is still there after that is a leftover.
settled() {
	i=0
	while [ -n "$("$@")" ] && [ $i -lt 600 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ -z "$("$@")" ]
}
# gone PATTERN: no process of this directory's matching PATTERN (settled).
gone() { settled running_here "$1"; }
# alive_in SID: the processes of session SID but zombies (this machine's
# init may leave them unreaped)
alive_in() { ps -o stat=,pid=,args= -s "$1" | awk '$1 !~ /^Z/'; }
wait_for() {
	i=0
	while [ ! -e "$1" ] && [ $i -lt 300 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ -e "$1" ] || fail "$1 never appeared"
}
cleanup() { for p in $(running_here 'sleep 3[0-9][0-9]'); do kill -KILL "$p" 2>/dev/null; done; }
trap cleanup EXIT

# a normal end: ab's setups and restore | how many it names (a pattern)
k=0
while IFS='|' read -r setups n; do
	k=$((k + 1))
	eval "set -- $setups"
	"$MEMPATH" ab --legs ABA "$@" -o ab$k -- $fast >out.txt 2>err.txt
	rc=$?
	# what is asserted here is what the setups left, not the verdict: the
	# legs' true/true comparison may have none (3) on a busy machine
	[ $rc -eq 0 ] || [ $rc -eq 3 ] || fail "ab $setups: exit $rc: $(cat err.txt)"
	gone 'sleep 3[0-9][0-9]' || fail "ab $setups: left $(running_here 'sleep 3[0-9][0-9]')"
	grep -q "ab: a setup or restore command left $n process.* running (.*): stopped" err.txt ||
		fail "ab $setups: not named: $(grep -v '^wrap\|^ab: leg' err.txt)"
	# a leg's own watchdog carries ab's mark too: it is never taken for a leftover
	# (the noise meter may list it among what is busy: that is no leftover)
	! grep 'left .* running' err.txt | grep -q 'mempath-guard' ||
		fail "ab $setups: a leg's watchdog named: $(grep guard err.txt)"
done <<'EOF'
--a true --b 'sleep 301 &'|1
--a true --b 'setsid sleep 302 &'|1
--a true --b '(sleep 303 &) ; sh -c "sleep 304 &"'|2
--a true --b 'nohup sleep 305 >>ab4/leg-2-setup.log 2>&1 &'|1
--a 'sleep 306 &' --b true|3
--a true --b true --restore 'setsid sh -c "sleep 307" &'|[12]
EOF
# nothing started: nothing named
"$MEMPATH" ab --legs ABA --a true --b true -o abq -- $fast >out.txt 2>err.txt
! grep -q 'left .* running' err.txt || fail "a clean ab named leftovers: $(cat err.txt)"

# SIGKILL of the command | what must be up before the kill
while IFS='|' read -r cmd ready; do
	rm -f ready
	eval "set -- $cmd"
	spawn "$MEMPATH" "$@" >out.txt 2>err.txt
	wait_for "$ready"
	kill -KILL $spawned
	wait $spawned 2>/dev/null
	gone 'sleep 3[0-9][0-9]' || fail "kill -9 of '$cmd' left: $(ps -o pid,args -p "$(running_here 'sleep 3[0-9][0-9]' | tr '\n' ',')0")"
	settled alive_in $spawned || fail "kill -9 of '$cmd' left in its session: $(alive_in $spawned)"
done <<'EOF'
wrap -n 1 -o k1.json -- sh -c 'touch ready; sleep 311'|ready
wrap -n 1 -o k2.json -- sh -c 'setsid sleep 312 & touch ready; sleep 313'|ready
wrap -n 1 -o k3.json -- sh -c '(sleep 314 &); touch ready; wait'|ready
ab --legs ABA --a true --b 'setsid sleep 315 & touch ready; exec sleep 316' --restore true -o kab1 -- wrap -n 6 -- true|ready
ab --legs ABA --a true --b true -o kab2 -- wrap -n 6 -- sh -c 'sleep 317 & touch ready; sleep 318'|ready
phantom --holder 'touch ready; sleep 319' --hog 16M --cpu 16M --hold 30 -o kp1.json|ready
phantom -o kp2.json -- sh -c 'setsid sleep 320 & touch ready; sleep 321'|ready
EOF
gone mempath || fail "mempath processes left: $(ps -o pid=,ppid=,stat=,etime=,args= -p "$(running_here mempath | tr "\n" ",")0")"

# phantom's command leaves a process holding memory: FAIL or not, it is
# stopped after the check and named
"$MEMPATH" phantom --settle 1 -o p.json -- sh -c 'setsid sleep 322 & exit 0' >out.txt 2>err.txt
gone 'sleep 3[0-9][0-9]' || fail "phantom left: $(running_here 'sleep 3[0-9][0-9]')"
grep -q "phantom: the command or holder left 1 process running (sleep): stopped" err.txt ||
	fail "phantom: not named: $(cat err.txt)"
exit 0
