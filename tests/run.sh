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
# The CLI tests run TEST_JOBS at a time (default: the CPUs online), each in
# a directory of its own; they are written to pass beside one another (and
# beside another checkout's `make test`). A test that reads what the whole
# machine's memory does while it runs has a line beginning `# test: alone`
# and runs after the others, with nothing of ours beside it.
set -u
# one CLI test, run by the loop below through xargs: "--one LOG TEST"
if [ "${1:-}" = --one ]; then
	log=$2 t=$3
	name=$(basename "$t" .sh)
	tmp=$(mktemp -d "$log/$name.XXXXXX")
	t0=$(date +%s%N)
	: >"$log/$name.cases"
	(cd "$tmp" && TMPDIR=$tmp MEMPATH_TEST_CASES=$log/$name.cases sh "$t") >"$log/$name.out" 2>&1
	rc=$?
	secs=$(awk -v a="$t0" -v b="$(date +%s%N)" 'BEGIN { printf "%.1f", (b - a) / 1e9 }')
	cases=$(wc -l <"$log/$name.cases")
	[ "$cases" -gt 0 ] || cases=1
	case $rc in
	0) line="ok   cli  $name ($cases cases, $secs s)" ;;
	77) line="skip cli  $name: $(tail -n 1 "$log/$name.out")" ;;
	*) line="FAIL cli  $name (exit $rc, case $cases, $secs s)" ;;
	esac
	echo "$rc $cases" >"$log/$name.rc"
	echo "$line"
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
jobs=${TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
case $jobs in '' | *[!0-9]* | 0) jobs=1 ;; esac
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

for t in "$build"/tests/test_*; do
	[ -x "$t" ] || continue
	name=$(basename "$t")
	t0=$(date +%s%N)
	if (cd "$top" && "$t") >"$log/$name.out" 2>&1; then
		n=$(grep -c '^\[       OK \]' "$log/$name.out")
		pass=$((pass + n))
		echo "ok   unit $name ($n tests, $(took "$t0"))"
	else
		n_ok=$(grep -c '^\[       OK \]' "$log/$name.out")
		n_bad=$(grep -c '^\[  FAILED  \] [a-z]' "$log/$name.out")
		[ "$n_bad" -gt 0 ] || n_bad=1
		pass=$((pass + n_ok))
		fail=$((fail + n_bad))
		failed="$failed unit:$name"
		echo "FAIL unit $name"
		sed 's/^/    /' "$log/$name.out" | tail -n 30
	fi
done

if [ "$which" != unit ]; then
	t0=$(date +%s%N)
	together="" alone="" plain_only=0
	for t in "$top"/tests/cli/t*.sh; do
		[ -f "$t" ] || continue
		if [ "$which" = sanitizers ] && ! grep -q '^# test: sanitizers' "$t"; then
			plain_only=$((plain_only + 1))
			continue
		fi
		if grep -q '^# test: alone' "$t"; then alone="$alone $t"; else together="$together $t"; fi
	done
	# shellcheck disable=SC2086 # the lists are paths without blanks
	printf '%s\n' $together | xargs -r -P "$jobs" -n 1 sh "$0" --one "$log"
	for t in $alone; do sh "$0" --one "$log" "$t"; done
	for t in $together $alone; do
		name=$(basename "$t" .sh)
		read -r rc cases <"$log/$name.rc" 2>/dev/null || rc=1 cases=1
		case $rc in
		0) pass=$((pass + cases)) ;;
		77) skip=$((skip + 1)) ;;
		*)
			pass=$((pass + cases - 1)) fail=$((fail + 1))
			failed="$failed cli:$name"
			echo "--- $name (exit $rc):"
			sed 's/^/    /' "$log/$name.out" | tail -n 30
			;;
		esac
	done
	echo "cli tests: $(took "$t0") with $jobs at a time"
	[ "$plain_only" -eq 0 ] || echo "cli tests not marked '# test: sanitizers' ($plain_only) run in the plain pass"
fi

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
