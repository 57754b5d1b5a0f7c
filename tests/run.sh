#!/bin/sh
# tests/run.sh BUILD_DIR [all|unit|sanitizers] - runs the unit tests
# (cmocka binaries in BUILD_DIR/tests/) and, unless told `unit`, the CLI
# tests (tests/cli/t*.sh) against BUILD_DIR/mempath: all of them, or with
# `sanitizers` those marked `# test: sanitizers` (the C paths the unit tests
# do not reach, picked by tools/sanitize-pick.sh; make test-asan), then
# prints "N passed, N failed, N skipped".
# A CLI test exits 0 (pass), 77 (skip; its last output line says why) or
# anything else (fail). It counts as its cases, one a mempath command it ran
# (the binary notes each in $MEMPATH_TEST_CASES): a test that passed, all of
# them passed; one that failed, its last one failed; one that skipped is one
# skip.
# The CLI tests run TEST_JOBS at a time (default: twice the CPUs online,
# once beside the other stages of a make test, below:
# many of them wait - for a child, a leg's idle sample, a timeout they
# test - and one a CPU kept the 2-CPU CI VM's pool at 405 s of CPU in 460 s
# of wall; two a CPU, 343 s), each in a directory of its own; they are
# written to pass beside one another (and beside another checkout's
# `make test`). A test that reads what the whole
# machine's memory does while it runs has a line beginning `# test: alone`
# and runs after the others, with nothing of ours beside it. A test marked
# `# test: long` starts first when no earlier run recorded the times.
set -u
# Names (MEMPATH_ONLY_TESTS, MEMPATH_SKIP_TESTS: blank- or comma-separated
# shell patterns): t4010 or t4010-ab names a CLI test, t4010.3 its third
# case; test_proc a unit test, test_proc.test_poll one of its cases (those
# are picked in the test binary, tests/unit/cases.c).
# names LIST NAME: does a name of LIST name the test NAME (or a case of it)?
names() {
	set -f
	for np in $(echo "$1" | tr ',' ' '); do
		np=${np%%.*}
		# shellcheck disable=SC2254 # the names are patterns
		case $2 in $np | $np-*) set +f && return 0 ;; esac
	done
	set +f
	return 1
}
# whole LIST NAME: does a name of LIST without a case name the test NAME?
whole() {
	set -f
	for np in $(echo "$1" | tr ',' ' '); do
		# shellcheck disable=SC2254
		case $np in *.*) ;; *) case $2 in $np | $np-*) set +f && return 0 ;; esac ;; esac
	done
	set +f
	return 1
}
# case_spec NAME: the cases of CLI test NAME the binary skips
# (MEMPATH_TEST_SKIP_CASES: "3 5", "7-" for 7 and after): those
# MEMPATH_SKIP_TESTS names, and those after the last MEMPATH_ONLY_TESTS
# names (the cases before a named one run too: it needs what they made).
case_spec() {
	spec="" last=0
	set -f
	for pat in $(echo "${MEMPATH_SKIP_TESTS:-}" | tr ',' ' '); do
		case $pat in *.*) names "${pat%%.*}" "$1" && spec="$spec ${pat#*.}" ;; esac
	done
	for pat in $(echo "${MEMPATH_ONLY_TESTS:-}" | tr ',' ' '); do
		case $pat in *.*) ;; *) names "$pat" "$1" && last=-1 ;; esac
	done
	if [ "$last" -eq 0 ]; then
		for pat in $(echo "${MEMPATH_ONLY_TESTS:-}" | tr ',' ' '); do
			case $pat in *.*[!0-9]* | *.) continue ;; *.*) ;; *) continue ;; esac
			names "${pat%%.*}" "$1" && [ "${pat#*.}" -gt "$last" ] && last=${pat#*.}
		done
		[ "$last" -le 0 ] || spec="$spec $((last + 1))-"
	fi
	set +f
	echo "$spec"
}
# cpu_of FILE: the seconds of CPU (user+sys, the shell's and its waited-for
# children's) that `times` wrote to FILE ("0m1.25s 0m0.10s" two lines)
cpu_of() {
	awk '{ for (i = 1; i <= NF; i++) { split($i, p, "m"); s += p[1] * 60 + p[2] } }
		END { printf "%.1f", s }' "$1" 2>/dev/null || echo 0
}
# one unit test binary, run by the pool below through xargs: "--one LOG
# BINARY"; it writes "rc passed skipped" to LOG/NAME.rc and, failed, the
# cases that failed to LOG/NAME.failed
if [ "${1:-}" = --one ] && [ "${3%.sh}" = "$3" ]; then
	log=$2 t=$3
	name=$(basename "$t")
	t0=$(date +%s%N)
	(cd "$top" && sh -c '"$1"; rc=$?; times >"$2"; exit $rc' sh "$t" "$log/$name.times") >"$log/$name.out" 2>&1
	rc=$?
	secs=$(awk -v a="$t0" -v b="$(date +%s%N)" 'BEGIN { printf "%.1f", (b - a) / 1e9 }')
	cpu=$(cpu_of "$log/$name.times")
	echo "$secs $cpu $name" >"$log/$name.time"
	n_ok=$(grep -c '^\[       OK \]' "$log/$name.out")
	n_skip=$(grep -c '^\[  SKIPPED \] .* (MEMPATH_SKIP_TESTS)$' "$log/$name.out")
	if [ $rc -eq 0 ]; then
		echo "ok   unit $name ($n_ok tests, $secs s, cpu $cpu s)"
		[ -z "${TEST_VERBOSE:-}" ] || sed -n 's/^\[       OK \] /    ok /p' "$log/$name.out"
	else
		# cmocka lists the failed cases by name after its summary
		sed -n "s/^\\[  FAILED  \\] \\([a-z][A-Za-z0-9_]*\\)\$/$name.\\1/p" "$log/$name.out" | sort -u >"$log/$name.failed"
		[ -s "$log/$name.failed" ] || echo "$name" >"$log/$name.failed"
		# what the first failed check said (cmocka's "[  ERROR   ] --- 0x1 != 0x2")
		said=$(sed -n 's/^\[  ERROR   \] --- //p' "$log/$name.out" | head -n 1 | cut -c 1-200)
		echo "FAIL unit $name (exit $rc, $secs s): $(sed 's/^/not ok /' "$log/$name.failed" | paste -s -d ' ')${said:+: $said}"
	fi
	echo "$rc $n_ok $n_skip" >"$log/$name.rc"
	exit 0
fi
# one CLI test, run by the pool below through xargs: "--one LOG TEST"
if [ "${1:-}" = --one ]; then
	log=$2 t=$3
	name=$(basename "$t" .sh)
	id=${name%%-*}
	if whole "${MEMPATH_SKIP_TESTS:-}" "$name"; then
		: >"$log/$name.cases"
		echo "skip cli  $name: MEMPATH_SKIP_TESTS names it"
		echo "77 skip" >"$log/$name.rc"
		exit 0
	fi
	tmp=$(mktemp -d "$log/$name.XXXXXX")
	t0=$(date +%s%N)
	: >"$log/$name.cases"
	# the CPU time of the test and of the processes it waited for (user+sys,
	# from the shell's `times` after it), beside its wall time
	# (the times file's path goes in the environment, not on the command
	# line: it names the log folder, mempath-tests.*, and a test that looks
	# for its own mempath processes by command line would find this shell)
	(cd "$tmp" && TMPDIR=$tmp MEMPATH_TEST_CASES=$log/$name.cases \
		MEMPATH_TEST_SKIP_CASES=$(case_spec "$name") RUN_TIMES=$log/$name.times \
		sh -c 'sh "$1"; rc=$?; times >"$RUN_TIMES"; exit $rc' sh "$t") >"$log/$name.out" 2>&1
	rc=$?
	secs=$(awk -v a="$t0" -v b="$(date +%s%N)" 'BEGIN { printf "%.1f", (b - a) / 1e9 }')
	cpu=$(cpu_of "$log/$name.times")
	echo "$secs $cpu $name" >"$log/$name.time"
	# each case named by its command line, the test's paths shortened
	awk -F '\t' -v id="$id" -v tmp="$tmp/" -v top="$top/" '
		function cut(s, from, to,   i) { while ((i = index(s, from)) > 0) s = substr(s, 1, i - 1) to substr(s, i + length(from)); return s }
		{ print $1 "\t" id "." NR " - " cut(cut($2, tmp, ""), top, "$top/") }' \
		"$log/$name.cases" >"$log/$name.named"
	cases=$(wc -l <"$log/$name.named")
	skipped=$(grep -c '^skip' "$log/$name.named")
	if [ "$cases" -eq 0 ]; then
		what=$(sed -n '1s/^# *//p' "$t")
		printf 'run\t%s.1 - %s\n' "$id" "$what" >"$log/$name.named"
	fi
	lastcase=$(tail -n 1 "$log/$name.named" | cut -f 2)
	# what the failed case checked: the message of lib.sh's fail
	said=$(grep '^FAIL: ' "$log/$name.out" | tail -n 1 | cut -c 7-200)
	# a case skipped by name may leave the cases after it without what they
	# need: past the first skip nothing is judged, pass or fail
	first=$(grep -n '^skip' "$log/$name.named" | head -n 1 | cut -d: -f1)
	[ "$skipped" -eq 0 ] || [ "$rc" -eq 0 ] || rc=77
	case $rc in
	0) line="ok   cli  $name ($(wc -l <"$log/$name.named") cases, $secs s, cpu $cpu s)" ;;
	77) if [ "$skipped" -gt 0 ]; then
		line="skip cli  $name: case $id.$first skipped by name, the rest of the test not judged"
	else
		line="skip cli  $name: $(tail -n 1 "$log/$name.out")"
	fi ;;
	*) line="FAIL cli  $name (exit $rc, $secs s, cpu $cpu s): not ok $lastcase${said:+: $said}" ;;
	esac
	echo "$rc $cases $skipped" >"$log/$name.rc"
	echo "$line"
	if [ -n "${TEST_VERBOSE:-}" ]; then
		n=0
		while IFS='	' read -r how what; do
			n=$((n + 1))
			if [ "$how" = skip ] || { [ "$rc" -eq 77 ] && [ -n "$first" ] && [ "$n" -gt "$first" ]; }; then
				echo "    ok $what # skip"
			elif [ "$rc" -ne 0 ] && [ "$rc" -ne 77 ] && [ "$n" -eq "$(wc -l <"$log/$name.named")" ]; then
				echo "    not ok $what"
			else
				echo "    ok $what"
			fi
		done <"$log/$name.named"
	fi
	exit 0
fi
build=${1:-build}
which=${2:-all}
case $which in all | unit | sanitizers) ;; *)
	echo "usage: tests/run.sh BUILD_DIR [all|unit|sanitizers]" >&2
	exit 2
	;;
esac
top=$(cd "$(dirname "$0")/.." && pwd)
case $build in /*) ;; *) build=$top/$build ;; esac
MEMPATH=$build/mempath
# beside the other stages of a make test (tests/stages.sh) one a CPU, so
# that the pools of two stages are two a CPU in all: four a CPU in each, with
# the lab beside them, put the 2-CPU VM at load 15 and first touch and ab
# tests failed on what they measured (t1005, t1010, t4024, t4028, t5104, t7002)
cpus=$(nproc 2>/dev/null || echo 1)
per=2
[ -z "${MEMPATH_STAGES_LOCK:-}" ] || per=1
jobs=${TEST_JOBS:-$((per * cpus))}
case $jobs in '' | *[!0-9]* | 0) jobs=1 ;; esac
# run by hand, not by make test's stages: the same machine-wide lock as
# there (tests/stages.sh), held shared by the pool and taken exclusively by
# the alone tests, so that they wait for any make test beside this run
if [ -z "${MEMPATH_STAGES_LOCK:-}" ] && command -v flock >/dev/null 2>&1; then
	lk=${MEMPATH_TESTS_LOCK:-/tmp/mempath-tests.lock}
	{ [ -e "$lk" ] || { : >>"$lk" && chmod 666 "$lk"; }; } 2>/dev/null
	if [ -w "$lk" ] && exec 8>>"$lk" && flock -s 8; then
		MEMPATH_STAGES_LOCK=$lk
	fi
fi
export MEMPATH top
pass=0 fail=0 skip=0
# elapsed time of the last test, "1.2 s"
took() { awk -v a="$1" -v b="$(date +%s%N)" 'BEGIN { printf "%.1f s", (b - a) / 1e9 }'; }
failed=""
log=$(mktemp -d "${TMPDIR:-/tmp}/mempath-tests.XXXXXX")
trap 'rm -rf "$log"' EXIT INT TERM
# no test writes into the checkout: the files git would list as new there
# (not ignored: build/ is) before the tests and after them
untracked() { git -C "$top" ls-files --others --exclude-standard 2>/dev/null | sort; }
untracked >"$log/untracked.before"

units=""
for t in "$build"/tests/test_*; do
	[ -x "$t" ] || continue
	name=$(basename "$t")
	if [ -n "${MEMPATH_ONLY_TESTS:-}" ] && ! names "$MEMPATH_ONLY_TESTS" "$name"; then continue; fi
	if whole "${MEMPATH_SKIP_TESTS:-}" "$name"; then
		skip=$((skip + 1))
		echo "skip unit $name: MEMPATH_SKIP_TESTS names it"
		continue
	fi
	units="$units $t"
done

t0=$(date +%s%N)
together="" alone="" waits="" plain_only=0
if [ "$which" != unit ]; then
	for t in "$top"/tests/cli/t*.sh; do
		[ -f "$t" ] || continue
		if [ -n "${MEMPATH_ONLY_TESTS:-}" ] && ! names "$MEMPATH_ONLY_TESTS" "$(basename "$t" .sh)"; then continue; fi
		if [ "$which" = sanitizers ] && ! grep -q '^# test: sanitizers' "$t"; then
			plain_only=$((plain_only + 1))
			continue
		fi
		if grep -q '^# test: alone' "$t"; then
			alone="$alone $t"
		elif grep -q '^# test: waits' "$t"; then
			waits="$waits $t"
		else
			together="$together $t"
		fi
	done
fi
# The unit tests and the CLI tests not alone share the pool, the longest
# first, so that the last to end is a short one: the order of the times the
# last run here recorded (BUILD_DIR/test-times, else build/test-times, the
# plain pass's: the sanitizer pass runs the same tests slower in about the
# same order), tests it did not see first; without any, the tests marked
# `# test: long` first, then by name.
times=""
for f in "$build/test-times" "$top/build/test-times"; do
	[ -s "$f" ] && times=$f && break
done
# by_cost FILE: the paths on stdin, the costliest first, into FILE
by_cost() {
	awk -v times="$times" '
	BEGIN { while (times != "" && (getline l < times) > 0) { split(l, f, " "); cost[f[3]] = f[1] } }
	{ n = $0; sub(/.*\//, "", n); sub(/\.sh$/, "", n)
	  if (times != "") key = (n in cost) ? cost[n] : 1e9
	  else { key = 0; while ((getline l < $0) > 0) if (l ~ /^# test: long/) key = 1; close($0) }
	  printf "%s\t%d\t%s\n", key, NR, $0 }' |
	sort -t "	" -k1,1gr -k2,2n | cut -f 3 >"$1"
}
# shellcheck disable=SC2086 # the lists are paths without blanks
printf '%s\n' $units $together | by_cost "$log/order"
: >"$log/order-waits"
# shellcheck disable=SC2086
[ -z "$waits" ] || printf '%s\n' $waits | by_cost "$log/order-waits"
# the first stage of a make test: the other stages wait for its build,
# which is done now (tests/stages.sh)
[ -z "${MEMPATH_STAGES_BUILD_FD:-}" ] || flock -u "$MEMPATH_STAGES_BUILD_FD" 2>/dev/null
# (the tests get no descriptor of the lock: one a test left running, a
# daemon, would hold it for every later make test on the machine)
# The tests marked `# test: waits` spend most of their time waiting on
# purpose (a leg that sleeps, a timeout, a daemon's exit: under a quarter
# of a CPU a second of theirs) and take no place in the pool: a lane of their
# own beside it, one a CPU, so that the pool's places go to tests that use
# the CPUs (in a clean-clone CI on the 2-CPU dev VM, 2026-12-07, five such
# tests held a place for 72 s of the plain pool's wall time, for 9 s of
# CPU).
xargs -r -P "$cpus" -n 1 sh "$0" --one "$log" <"$log/order-waits" 6>&- 8>&- &
waits_pid=$!
xargs -r -P "$jobs" -n 1 sh "$0" --one "$log" <"$log/order" 6>&- 8>&-
wait "$waits_pid"
# In a make test whose stages run side by side (tests/stages.sh), nothing
# of ours beside the alone tests either: this stage's shared hold on the
# machine's tests lock (descriptor 8) is given up, and the lock taken
# exclusively, which waits for the other stages (this make test's and any
# other's) to end or to reach their alone tests; at most
# MEMPATH_TESTS_LOCK_WAIT seconds (default 1800), then they run, saying so.
if [ -n "$alone" ] && [ -n "${MEMPATH_STAGES_LOCK:-}" ]; then
	flock -u 8 2>/dev/null
	exec 7>>"$MEMPATH_STAGES_LOCK"
	w0=$(date +%s)
	if ! flock -x -w "${MEMPATH_TESTS_LOCK_WAIT:-1800}" 7; then
		echo "note: the alone tests waited $(($(date +%s) - w0)) s for $MEMPATH_STAGES_LOCK (another make test holds it) and run beside it"
	fi
fi
for t in $alone; do sh "$0" --one "$log" "$t" 7>&- 8>&-; done
[ -z "$alone" ] || [ -z "${MEMPATH_STAGES_LOCK:-}" ] || { flock -u 7; exec 7>&-; }
for t in $units; do
	name=$(basename "$t")
	read -r rc n_ok n_skip <"$log/$name.rc" 2>/dev/null || rc=1 n_ok=0 n_skip=0
	pass=$((pass + n_ok)) skip=$((skip + n_skip))
	[ "$rc" -eq 0 ] && continue
	[ -s "$log/$name.failed" ] || echo "$name" >"$log/$name.failed"
	fail=$((fail + $(wc -l <"$log/$name.failed")))
	failed="$failed $(tr '\n' ' ' <"$log/$name.failed")"
	echo "--- not ok $(paste -s -d ' ' "$log/$name.failed") ($name, exit $rc):"
	sed 's/^/    /' "$log/$name.out" | tail -n 30
done
for t in $together $waits $alone; do
	name=$(basename "$t" .sh)
	read -r rc cases skipped <"$log/$name.rc" 2>/dev/null || rc=1 cases=1 skipped=0
	case $rc in
	0) pass=$((pass + (cases > 0 ? cases - skipped : 1))) skip=$((skip + skipped)) ;;
	77)
		if [ "$skipped" = skip ] || [ "$skipped" -eq 0 ]; then
			skip=$((skip + 1))
		else
			# a case was skipped by name: those before it passed, the rest are
			# not judged (they may need what it would have made)
			first=$(grep -n '^skip' "$log/$name.named" | head -n 1 | cut -d: -f1)
			pass=$((pass + first - 1)) skip=$((skip + cases - first + 1))
		fi
		;;
	*)
		pass=$((pass + (cases > 0 ? cases - 1 - skipped : 0))) fail=$((fail + 1))
		what=$(tail -n 1 "$log/$name.named" | cut -f 2)
		failed="$failed ${what%% - *}"
		echo "--- not ok $what ($name, exit $rc):"
		sed 's/^/    /' "$log/$name.out" | tail -n 30
		;;
	esac
done
# the slowest ten by wall and by CPU (what to shorten first); TEST_TIMES=FILE
# keeps every test's "wall cpu name"
cat "$log"/*.time 2>/dev/null >"$log/times"
[ -z "${TEST_TIMES:-}" ] || sort -k1,1nr "$log/times" >"$TEST_TIMES"
# the next run's order: these times, and the earlier ones of tests not run now
{
	cat "$log/times"
	[ ! -s "$build/test-times" ] || awk 'NR == FNR { seen[$3] = 1; next } !($3 in seen)' "$log/times" "$build/test-times"
} | sort -k1,1nr >"$log/test-times" && cp "$log/test-times" "$build/test-times" 2>/dev/null
cpu=$(awk '{ s += $2 } END { printf "%.1f", s }' "$log/times")
echo "tests: $(took "$t0") with $jobs at a time, cpu $cpu s in all"
if [ "$(wc -l <"$log/times")" -gt 10 ]; then
	echo "slowest by wall: $(sort -k1,1nr "$log/times" | head -n 10 | awk '{ printf "%s%s %s s", (NR > 1 ? ", " : ""), $3, $1 }')"
	echo "slowest by cpu:  $(sort -k2,2nr "$log/times" | head -n 10 | awk '{ printf "%s%s %s s", (NR > 1 ? ", " : ""), $3, $2 }')"
fi
[ "$plain_only" -eq 0 ] || echo "cli tests not marked '# test: sanitizers' ($plain_only) run in the plain pass"
untracked >"$log/untracked.after"
if [ -n "$(comm -13 "$log/untracked.before" "$log/untracked.after")" ]; then
	echo "FAIL the tests wrote into the checkout $top (tests write under their temporary directory):"
	comm -13 "$log/untracked.before" "$log/untracked.after" | head -n 20 | sed 's/^/    /'
	fail=$((fail + 1))
	failed="$failed checkout"
fi
[ -z "$failed" ] || echo "failed:$failed"
echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
