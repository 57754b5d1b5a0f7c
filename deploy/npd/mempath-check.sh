#!/bin/sh
# mempath-check.sh - a node-problem-detector custom plugin: judges the
# newest results file the DaemonSet saved (deploy/daemonset.yaml) with
# `mempath check --brief` and answers in the plugin protocol: exit 0 the
# memory paths are fine, 1 a path FAILs or cannot be judged (a problem),
# anything else unknown (no results file, mempath missing or refusing);
# one line on stdout, the message NodeCondition shows.
#   MEMPATH          the binary (default: mempath on PATH)
#   MEMPATH_RESULTS  the results file to judge (default /var/lib/mempath/last.json)
bin=${MEMPATH:-mempath}
results=${MEMPATH_RESULTS:-/var/lib/mempath/last.json}
if [ ! -r "$results" ]; then
	echo "no results file to judge: $results"
	exit 2
fi
out=$("$bin" check --brief "$results" 2>&1)
rc=$?
case $rc in
0)
	n=$(printf '%s\n' "$out" | grep -c '^  \(PASS\|WARN\) ')
	echo "memory paths OK: $n PASS or WARN"
	exit 0
	;;
1)
	bad=$(printf '%s\n' "$out" | grep -m 1 '^  \(FAIL\|INCONCLUSIVE\) ' | sed 's/^  *//; s/   */ /')
	echo "${bad:-a probe could not run: $(printf '%s\n' "$out" | tail -n 1)}"
	exit 1
	;;
*)
	echo "mempath check exited $rc: $(printf '%s\n' "$out" | tail -n 1)"
	exit 2
	;;
esac
