# tests/cli/lib.sh - sourced by CLI tests: $MEMPATH is the binary under test.
set -u
# The look at who else is busy that each results file's host and each ab's
# start take lasts 20 ms here, not 0.25 s (src/machine/noise.h): the tests
# run some 3000 such commands, whose looks were most of make test's wall
# time; a test that judges the look sets it empty (the 0.25 s default).
export MEMPATH_TEST_BUSY_LOOK_MS="${MEMPATH_TEST_BUSY_LOOK_MS-20}"
fail() {
	echo "FAIL: $*" >&2
	exit 1
}
skip() {
	echo "$*"
	exit 77
}
# expect_fail CODE CMD...: CMD exits CODE and prints exactly one stderr line.
expect_fail() {
	want=$1
	shift
	"$@" >out.txt 2>err.txt
	rc=$?
	[ $rc -eq "$want" ] || fail "'$*' exited $rc, expected $want; stderr: $(cat err.txt)"
	[ "$(wc -l <err.txt)" -eq 1 ] || fail "'$*' should print one error line, printed: $(cat err.txt)"
	grep -q '^mempath: error: ' err.txt || fail "'$*' error line lacks the prefix: $(cat err.txt)"
}
# verdict_ok RC FILE...: compare or ab exited 0, or 3 because this busy
# machine's load differed between the legs of a control and for no other
# reason (the summary line in one of the FILEs says so: the last line of a
# table, the "summary" of compare.json); legs measured here cannot promise
# the same load, so that outcome is legitimate, any other is not (a LOSS
# under --fail-on-loss, 1, still fails). (A metric's own legs under
# different load make it UNSTABLE, exit 0.)
verdict_ok() {
	[ "$1" -eq 0 ] && return 0
	[ "$1" -eq 3 ] || return 1
	shift
	grep -q 'no trusted verdict ([0-9]* controls\{0,1\} not checked: measured under different load): ' "$@" 2>/dev/null
}
# busy_start, then busy_others: the CPUs the rest of the machine kept busy
# in between (all CPUs' busy time from /proc/stat, less this test's own and
# its children's, by `times`), as a number ("0.12"). A test whose assertion
# is about figures measured here sets its tolerance from it: see fail_busy.
busy_jiffies() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8; exit }' /proc/stat; }
own_ticks() { times | awk -v hz="$(getconf CLK_TCK)" '
	function s(t,   m) { m = t; sub(/m.*/, "", m); sub(/^[0-9.]*m/, "", t); sub(/s$/, "", t); return m * 60 + t }
	{ t += s($1) + s($2) } END { printf "%.0f", t * hz }'; }
busy_start() { busy_j0=$(busy_jiffies) busy_o0=$(own_ticks) busy_t0=$(date +%s%N); }
busy_others() {
	awk -v j0="$busy_j0" -v j1="$(busy_jiffies)" -v o0="$busy_o0" -v o1="$(own_ticks)" \
		-v t0="$busy_t0" -v t1="$(date +%s%N)" -v hz="$(getconf CLK_TCK)" 'BEGIN {
		w = (t1 - t0) / 1e9; v = w > 0 ? ((j1 - j0) - (o1 - o0)) / hz / w : 0
		printf "%.2f", v < 0 ? 0 : v }'
}
# fail_busy MSG: fail, unless the rest of the machine kept more than half a
# CPU busy since busy_start: then the figures were not this test's to judge,
# and it is skipped, saying so (another make test beside this one).
fail_busy() {
	o=$(busy_others)
	awk -v o="$o" 'BEGIN { exit !(o > 0.5) }' &&
		skip "the rest of the machine kept $o CPUs busy beside it: not judged ($*)"
	fail "$*"
}
# csv_value FILE PROBE METRIC LABELS: median from `mempath report --format csv`.
csv_value() {
	"$MEMPATH" report "$1" --format csv |
		awk -F, -v p="$2" -v m="$3" -v l="$4" '
		{ line = $0; n = split(line, f, ","); }
		/"/ { # rebuild quoted labels field
			q = index(line, "\""); r = index(substr(line, q + 1), "\"") + q
			lab = substr(line, q + 1, r - q - 1)
			rest = substr(line, r + 2); split(rest, g, ",")
			split(substr(line, 1, q - 1), h, ",")
			if (h[1] == p && h[3] == m && lab == l) print g[4]
			next }
		$1 == p && $3 == m && $4 == l { print $8 }'
}
# spawn CMD...: runs CMD in the background as the leader of a session of its
# own; $spawned is its pid, which is also the session id, so what it leaves
# behind is told apart from the processes of any test running beside this one
# (another `make test` runs the same commands).
spawn() {
	setsid "$@" &
	spawned=$!
}
# left SID [PATTERN]: pids of the processes still in session SID (whose
# command line matches PATTERN); nothing when none is.
left() {
	if [ $# -gt 1 ]; then
		pgrep -s "$1" -f "$2"
	else
		pgrep -s "$1"
	fi
}
# running_here PATTERN: the pids of processes whose command line matches
# PATTERN and whose working directory is this test's own (other checkouts
# may run the same tests at the same time).
running_here() {
	here=$(pwd -P)
	for p in $(pgrep -f "$1"); do
		[ "$(readlink "/proc/$p/cwd" 2>/dev/null)" = "$here" ] && echo "$p"
	done
}
# mem_watch_start, mem_watch_stop: sample, every 0.1 s while the test runs
# something, the memory the machine has for everyone else: MemAvailable +
# the per-CPU free lists (what phantom reads) + the resident memory of this
# test's own processes (those working in this directory). Memory the test
# takes or gives back moves those terms in opposite directions, so the sum
# moves only with other processes. mem_watch_stop sets MEM_DRIFT_MIB to its
# range over the run and MEM_STEP_MIB to its largest move between two
# samples (how far it may have gone between them).
mem_watch_start() {
	here=$(pwd -P)
	page=$(getconf PAGESIZE)
	rm -f mem.stop mem.samples
	(
		while [ ! -f mem.stop ]; do
			find /proc/[0-9]*/cwd -maxdepth 0 -lname "$here" 2>/dev/null |
				sed 's|/cwd$|/statm|' | xargs cat 2>/dev/null >mem.statm
			awk -v page="$page" '
				FILENAME ~ /statm/ { ours += $2 * page }
				FILENAME == "/proc/meminfo" && $1 == "MemAvailable:" { avail = $2 * 1024 }
				FILENAME == "/proc/zoneinfo" {
					if ($1 == "pagesets") p = 1
					else if ($1 == "Node" || $1 == "node_unreclaimable:") p = 0
					else if (p && $1 == "count:") pcp += $2 * page
				}
				END { printf "%d\n", (avail + pcp + ours) / 1048576 }' \
				mem.statm /proc/meminfo /proc/zoneinfo
			sleep 0.1
		done
	) >mem.samples &
	mem_watch_pid=$!
}
mem_watch_stop() {
	touch mem.stop
	wait "$mem_watch_pid"
	MEM_DRIFT_MIB=$(awk 'NR == 1 || $1 < lo { lo = $1 } NR == 1 || $1 > hi { hi = $1 }
		END { print NR ? hi - lo : 0 }' mem.samples)
	MEM_STEP_MIB=$(awk 'NR > 1 { d = $1 - prev; if (d < 0) d = -d; if (d > step) step = d }
		{ prev = $1 } END { print step + 0 }' mem.samples)
}
# mem_quiet LIMIT_MIB CMD...: runs CMD under mem_watch, up to three times,
# until a run during which other processes moved the machine's memory by at
# most LIMIT_MIB. Returns 0 after such a run, 1 after three busier ones
# (MEM_SEEN lists what each moved); MEM_RC is CMD's status.
mem_quiet() {
	mem_limit=$1
	shift
	MEM_SEEN=""
	for mem_try in 1 2 3; do
		mem_watch_start
		"$@"
		MEM_RC=$?
		mem_watch_stop
		[ "$MEM_DRIFT_MIB" -le "$mem_limit" ] && return 0
		MEM_SEEN="$MEM_SEEN $MEM_DRIFT_MIB"
	done
	return 1
}
