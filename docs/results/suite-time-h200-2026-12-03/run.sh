#!/bin/sh
# Issue 43 item 7 on the one-H200 machine: the gpu and quick suites with
# 10 ms sample windows (--window-ms 10; the default is 50 ms), their wall
# times and check of their files beside the 50 ms runs' (the gpu suite of
# docs/results/h200-backend-table-2026-12-03/, the quick suite of
# docs/results/judged-h200-2026-12-02/). OUT: where the files go.
B=./build/mempath
out=${OUT:?}
for s in gpu quick; do
	{ date -u; t0=$(date +%s.%N); $B run --suite $s --window-ms 10 -o "$out/$s-w10.json" 2>&1; echo "rc=$? wall $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s"; } >"$out/$s-w10.txt"
	$B check "$out/$s-w10.json" >"$out/check-$s-w10.txt" 2>&1
done
