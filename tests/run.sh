#!/bin/sh
# tests/run.sh BUILD_DIR [all|unit] - runs the unit tests (cmocka binaries
# in BUILD_DIR/tests/) and, unless told `unit`, the CLI tests
# (tests/cli/t*.sh) against BUILD_DIR/mempath, then prints "N passed,
# N failed, N skipped".
# A CLI test exits 0 (pass), 77 (skip; its last output line says why) or
# anything else (fail).
set -u
build=${1:-build}
which=${2:-all}
case $which in all | unit) ;; *)
	echo "usage: tests/run.sh BUILD_DIR [all|unit]" >&2
	exit 2
	;;
esac
top=$(cd "$(dirname "$0")/.." && pwd)
case $build in /*) ;; *) build=$top/$build ;; esac
MEMPATH=$build/mempath
export MEMPATH top
pass=0 fail=0 skip=0
# elapsed time of the last test, "1.2 s" (seconds where date has no %N)
now() { date +%s%N 2>/dev/null | grep -q N && date +%s000000000 || date +%s%N; }
took() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f s", (b - a) / 1e9 }'; }
failed=""
log=$(mktemp -d "${TMPDIR:-/tmp}/mempath-tests.XXXXXX")
trap 'rm -rf "$log"' EXIT INT TERM

for t in "$build"/tests/test_*; do
	[ -x "$t" ] || continue
	name=$(basename "$t")
	t0=$(now)
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

for t in "$top"/tests/cli/t*.sh; do
	[ -f "$t" ] && [ "$which" = all ] || continue
	name=$(basename "$t" .sh)
	tmp=$(mktemp -d "$log/$name.XXXXXX")
	t0=$(now)
	(cd "$tmp" && TMPDIR=$tmp sh "$t") >"$log/$name.out" 2>&1
	rc=$?
	if [ $rc -eq 0 ]; then
		pass=$((pass + 1))
		echo "ok   cli  $name ($(took "$t0"))"
	elif [ $rc -eq 77 ]; then
		skip=$((skip + 1))
		echo "skip cli  $name: $(tail -n 1 "$log/$name.out")"
	else
		fail=$((fail + 1))
		failed="$failed cli:$name"
		echo "FAIL cli  $name (exit $rc)"
		sed 's/^/    /' "$log/$name.out" | tail -n 30
	fi
done

[ -z "$failed" ] || echo "failed:$failed"
echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
