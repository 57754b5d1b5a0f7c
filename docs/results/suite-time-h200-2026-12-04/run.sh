#!/bin/sh
# The quick and gpu suites at the build's defaults on a fresh host (the quick
# suite first: it measures the cache knee), then the quick suite again (the
# knee cached), wall times and check of their files (as
# suite-time-h200-2026-12-03/run2.sh). OUT: where the files go.
B=./build/mempath
out=${OUT:?}
for s in quick gpu quick2; do
	{ date -u; t0=$(date +%s.%N); $B run --suite ${s%2} -o "$out/$s.json" 2>&1; echo "rc=$? wall $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s"; } >"$out/$s.txt"
	$B check "$out/$s.json" >"$out/check-$s.txt" 2>&1
done
