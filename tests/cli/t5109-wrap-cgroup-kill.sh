# A run's cgroup goes with it: removed after the run; after mempath itself
# is killed with SIGKILL the command dies with it (PDEATHSIG) and the next
# wrap removes the cgroup that was left, in every hierarchy it used (cgroup
# v1: memory, cpuacct, pids). Needs cgroups per run (cgroup v2 handing the
# memory controller to children, or a writable cgroup v1 memory group, as
# root): this VM has v1.
# test: alone (plants a stale cgroup of a killed mempath, which a wrap beside it would remove first: tests/run.sh)
. "$top/tests/cli/lib.sh"
sh -c 'echo $$ >wrap.pid; exec "$0" "$@"' "$MEMPATH" wrap -n 1 -o probe.json -- true >/dev/null \
	2>probe.err || fail "wrap exited $?: $(cat probe.err)"
grep -q '"cgroup": "one per run"' probe.json ||
	skip "no cgroup per run here: $(sed -n 's/^wrap: no cgroup per run (\(.*\)): .*/\1/p' probe.err)"
parent=$(tr -d '\n' <probe.json | sed 's/.*"parent": *"\([^"]*\)".*/\1/')
[ -d "$parent" ] || fail "parent $parent"
# its own group only (another make test's killed wrap may have left one)
ls -d "$parent/mempath-$(cat wrap.pid)-"* 2>/dev/null | grep -q . &&
	fail "a cgroup of the finished wrap was left: $(ls -d "$parent/mempath-$(cat wrap.pid)-"*)"
spawn "$MEMPATH" wrap -n 1 -q -o k.json -- sleep 60
wrap_pid=$spawned
cg=""
for i in $(seq 100); do
	cg=$(ls -d "$parent/mempath-$wrap_pid-"* 2>/dev/null | head -n 1)
	[ -n "$cg" ] && grep -q . "$cg/cgroup.procs" 2>/dev/null && break
	sleep 0.1
done
[ -n "$cg" ] || fail "no cgroup for the run of wrap $wrap_pid"
kill -9 "$wrap_pid"
wait "$wrap_pid" 2>/dev/null
for i in $(seq 50); do
	[ -z "$(left "$wrap_pid" 'sleep 60')" ] && break
	sleep 0.1
done
[ -z "$(left "$wrap_pid" 'sleep 60')" ] || fail "the command outlived a killed mempath"
[ -d "$cg" ] || fail "expected the killed wrap's cgroup to be left for the next one"
# The next wrap removes it, and says so. Another mempath on this machine (a
# second make test beside this one) may be that next wrap: then the group is
# gone before ours looks, and ours cannot say it. The group must be gone
# either way; ours must say it unless another mempath ran beside it.
others() { pgrep -x mempath | grep -v "^$$\$" | tr '\n' ' '; }
before=$(others)
"$MEMPATH" wrap -n 1 -o n.json -- true >/dev/null 2>n.err || fail "wrap exited $?"
after=$(others)
[ -d "$cg" ] && fail "stale cgroup $cg not removed"
if ! grep -q 'removed [0-9]* cgroups\{0,1\} left by a mempath that was killed' n.err; then
	[ -n "$before$after" ] || fail "stale cgroup removed but not said: $(cat n.err)"
	echo "the stale cgroup may have been removed by another mempath here (pids $before$after)"
fi
for h in cpuacct pids; do
	d=$(tr -d '\n' <probe.json | sed -n "s/.*\"$h\": *\"\([^\"]*\)\".*/\1/p")
	[ -n "$d" ] || continue
	ls -d "$d/mempath-$wrap_pid-"* 2>/dev/null | grep -q . && fail "its $h group left in $d"
done
exit 0
