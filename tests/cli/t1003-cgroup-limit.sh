# Sizes are capped by what this process may use: MemAvailable, or the room
# under its cgroup's memory limit when that is smaller. A 1 GiB probe in a
# 600 MiB cgroup is refused with a clear reason, not killed by the OOM killer.
. "$top/tests/cli/lib.sh"
[ "$(id -u)" = 0 ] || skip "needs root to create a cgroup"
rel=$(sed -n 's/^0:://p' /proc/self/cgroup)
if [ -n "$rel" ] && [ -f "/sys/fs/cgroup$rel/cgroup.controllers" ] &&
	grep -qw memory "/sys/fs/cgroup$rel/cgroup.subtree_control" 2>/dev/null; then
	dir=/sys/fs/cgroup$rel/mempath-t1003-$$
	limit=memory.max
else
	rel=$(sed -n 's/^[0-9]*:[^:]*memory[^:]*://p' /proc/self/cgroup)
	[ -n "$rel" ] && [ -d "/sys/fs/cgroup/memory$rel" ] || skip "no writable memory cgroup here"
	dir=/sys/fs/cgroup/memory$rel/mempath-t1003-$$
	limit=memory.limit_in_bytes
fi
mkdir "$dir" 2>/dev/null || skip "cannot create a cgroup under $(dirname "$dir")"
trap 'rmdir "$dir" 2>/dev/null' EXIT
echo $((600 * 1024 * 1024)) >"$dir/$limit" 2>/dev/null || skip "cannot set $limit"
sh -c "echo \$\$ >'$dir/cgroup.procs' && exec '$MEMPATH' probe cpu.first_touch size=1G pages=4k \
	touch=write --reps 1 --warmups 0" >out.txt 2>err.txt
rc=$?
grep -q 'OOM' out.txt && fail "OOM-killed instead of refused: $(cat out.txt)"
grep -q 'above 80% of what this process may use (0\.' err.txt ||
	fail "not refused for the cgroup's limit (exit $rc): $(cat err.txt out.txt)"
exit 0
