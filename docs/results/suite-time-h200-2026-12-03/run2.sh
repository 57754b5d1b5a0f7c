#!/bin/sh
# The gpu and quick suites at the defaults of the change (GPU probes' 10 ms
# windows, the pinned copies' 400 ms receipt windows kept), wall times and
# check of their files. OUT: where the files go.
B=./build/mempath
out=${OUT:?}
for s in gpu quick; do
	{ date -u; t0=$(date +%s.%N); $B run --suite $s -o "$out/$s.json" 2>&1; echo "rc=$? wall $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s"; } >"$out/$s.txt"
	$B check "$out/$s.json" >"$out/check-$s.txt" 2>&1
done
