# check --textfile killed mid-write (SIGKILL while half the text is in the
# temporary file: MEMPATH_TEST_STOP_MID_WRITE stops the writer there) never
# shows part of a file under the final name: the collector's folder holds
# the previous complete file, and the temporary is a dot-name node_exporter
# does not read (it reads *.prom). A folder that does not exist is refused
# before anything is read.
. "$top/tests/cli/lib.sh"
fix=$top/docs/results/check-h200-2026-12-01.json
# the references that file was measured against (data/ before issue 41)
export MEMPATH_REFS=$top/tests/data/refs-2026-12-01
mkdir tf
"$MEMPATH" check --textfile tf "$fix" >/dev/null 2>&1 || fail "check: exit $?"
cp tf/mempath.prom first.prom
tail -n 1 first.prom | grep -qx '# EOF' || fail "no # EOF at the end: $(tail -2 first.prom)"
# the same, and the first time there is no file yet: neither leaves a part
for case in replace new; do
	[ $case = new ] && rm tf/mempath.prom
	MEMPATH_TEST_STOP_MID_WRITE=1 "$MEMPATH" check --textfile tf "$fix" >/dev/null 2>&1 &
	pid=$!
	i=0
	until [ "$(awk '{ print $3 }' /proc/$pid/stat 2>/dev/null)" = T ]; do
		i=$((i + 1))
		[ $i -le 300 ] || { kill -9 $pid; fail "$case: the writer never stopped mid-write"; }
		kill -0 $pid 2>/dev/null || fail "$case: the writer ended without stopping"
		sleep 0.1
	done
	tmp=$(ls -a tf | grep '^\.mempath\.prom\.') || fail "$case: no temporary beside: $(ls -a tf)"
	[ -s "tf/$tmp" ] || fail "$case: the temporary is empty: the stop is not mid-write"
	cmp -s "tf/$tmp" first.prom && fail "$case: the temporary is whole: the stop is not mid-write"
	kill -9 $pid
	wait $pid 2>/dev/null
	if [ $case = replace ]; then
		cmp -s tf/mempath.prom first.prom || fail "the file under the final name changed: $(tail -2 tf/mempath.prom)"
	else
		[ ! -e tf/mempath.prom ] || fail "a file appeared under the final name: $(tail -2 tf/mempath.prom)"
	fi
	ls tf | grep -q '\.prom$' && [ $case = new ] && fail "a *.prom file the collector would read: $(ls -a tf)"
	rm -f "tf/$tmp"
done
# the next run replaces it whole
"$MEMPATH" check --textfile tf "$fix" >/dev/null 2>&1 || fail "check after the kills: exit $?"
cmp -s tf/mempath.prom first.prom || fail "the rewritten file differs from the first"
expect_fail 2 "$MEMPATH" check --textfile nowhere/mempath.prom "$fix"
exit 0
