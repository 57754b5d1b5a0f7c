#!/bin/sh
# tests/stages.sh MAKE 'NAME|TARGET|WHAT'... - make test: runs each stage
# (`MAKE TARGET`) whether or not another failed, then prints what each
# ran, its outcome (pass, FAIL, skipped), its counts (the stage's closing
# "N passed, N failed, N skipped" line) and its time, and as the last line
# the sums: "N passed, N failed, N skipped". Exit 1 when a
# stage failed. A stage that ends non-zero without a count line (its build
# or a check before its tests failed) is a FAIL that ran no tests. The
# stages' outcomes come on the line before the sums, so the last line is
# the plain "N passed, N failed, N skipped" a CI reader expects.
# The stages run side by side (the first one's build first, alone): each
# has its own build folder, and their tests are written to pass beside
# another make test; one after another
# the 2-CPU CI VM sat mostly idle in their waits and in the lab's single
# lanes (792 s of wall for about 780 s of CPU). The tests marked `# test:
# alone` still run with nothing of ours beside them: each stage holds a
# shared lock on one file (MEMPATH_STAGES_LOCK, on descriptor 8) from its
# start to its end, and tests/run.sh gives its stage's hold up before those
# tests and takes the lock exclusively for them, so they start once every
# other stage has ended or reached its own such tests, one stage's at a
# time. The lock is the machine's, not this make test's
# (MEMPATH_TESTS_LOCK, default /tmp/mempath-tests.lock): beside another
# checkout's make test the alone tests wait for its stages too (they set the
# mTHP sizes, cpu_dma_latency and cgroups that its tests fingerprint or
# restore; with a lock of each make test's own, two side by side failed
# seven tests and left two mTHP sizes changed). The first stage's output
# comes as it runs, each other's after it ended, in order. Without flock(1)
# the stages run one after another.
set -u
make=$1
shift
log=$(mktemp -d "${TMPDIR:-/tmp}/mempath-stages.XXXXXX")
trap 'rm -rf "$log"' EXIT INT TERM
# stage I TARGET: runs it, its output to $log/I.out, its exit status and
# seconds to $log/I.rc and $log/I.secs
stage() {
	t0=$(date +%s)
	MEMPATH_STAGES_LOCK=$lock $make --no-print-directory "$2" >>"$log/$1.out" 2>&1
	echo $? >"$log/$1.rc"
	echo $(($(date +%s) - t0)) >"$log/$1.secs"
}
lock=""
if command -v flock >/dev/null 2>&1; then
	lock=${MEMPATH_TESTS_LOCK:-/tmp/mempath-tests.lock}
	# anyone's make test opens it (it is created once, by whoever came first)
	{ [ -e "$lock" ] || { : >>"$lock" && chmod 666 "$lock"; }; } 2>/dev/null
	[ -w "$lock" ] || lock=""
fi
i=0
for st in "$@"; do
	i=$((i + 1))
	target=$(echo "$st" | cut -d '|' -f 2)
	: >"$log/$i.out"
	if [ -z "$lock" ]; then
		stage $i "$target"
		cat "$log/$i.out"
		continue
	fi
	# the hold is taken here, before the next stage starts, so that none
	# can take the lock exclusively while a stage has yet to start; the
	# stage's processes keep the descriptor, this shell closes it
	exec 8>>"$lock"
	flock -s 8
	if [ $i -eq 1 ]; then
		# the first stage (the plain build, the long pool) builds with the
		# CPUs to itself: the others start when its tests start (tests/run.sh
		# gives up the lock on descriptor 6, MEMPATH_STAGES_BUILD_FD) or it
		# ended. All of them at once, the three builds and the lab's guests
		# kept build/ from its tests for 150 s, not 30 s.
		exec 6>"$log/build.lock"
		flock -x 6
		(
			export MEMPATH_STAGES_BUILD_FD=6
			stage $i "$target"
			flock -u 6
			flock -u 8
		) &
		exec 6>&-
	else
		(
			flock -s "$log/build.lock" true
			stage $i "$target"
			flock -u 8
		) &
	fi
	eval "pid_$i=\$!"
	exec 8>&-
done
i=0
[ -z "$lock" ] || for st in "$@"; do
	i=$((i + 1))
	eval "pid=\$pid_$i"
	if [ $i -eq 1 ]; then
		tail -n +1 -f --pid="$pid" "$log/$i.out"
	else
		wait "$pid"
		cat "$log/$i.out"
	fi
	wait "$pid" 2>/dev/null
done
pass=0 fail=0 skip=0 bad=0 said=""
echo
echo "make test, by stage:"
i=0
for st in "$@"; do
	i=$((i + 1))
	name=$(echo "$st" | cut -d '|' -f 1)
	what=$(echo "$st" | cut -d '|' -f 3)
	rc=$(cat "$log/$i.rc" 2>/dev/null || echo 1)
	# the stage's closing count line: "[lab: ]N passed, N failed[, N skipped]"
	counts=$(sed -n 's/^\(lab: \)\{0,1\}\([0-9]* passed, [0-9]* failed\(, [0-9]* skipped\)\{0,1\}\)$/\2/p' "$log/$i.out" | tail -n 1)
	p=0 f=0 s=0
	if [ -n "$counts" ]; then
		# shellcheck disable=SC2086 # the counts are words (the loop above has its list already)
		set -- $counts
		p=$1 f=$3 s=${5:-0}
	fi
	if [ "$rc" -ne 0 ]; then
		how=FAIL
		[ -n "$counts" ] || counts="no tests ran (what came before them failed: above)"
		[ "$f" -gt 0 ] || f=1
		bad=1
	elif [ "$p" -eq 0 ] && [ "$s" -gt 0 ]; then
		how=skipped
		counts="$counts: $(sed -n 's/^lab: skipped: //p; s/^study: skipped: //p; s/^test-[a-z]*: skipped //p' "$log/$i.out" | tail -n 1)"
	else
		how=pass
	fi
	pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
	printf '  %-10s %-7s %s s  %s: %s\n' "$name" "$how" "$(cat "$log/$i.secs")" "$what" "$counts"
	said="$said${said:+, }$name $how"
done
echo "stages: $said"
echo "$pass passed, $fail failed, $skip skipped"
[ $bad -eq 0 ]
