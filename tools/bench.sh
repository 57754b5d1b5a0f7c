#!/bin/sh
# tools/bench.sh MEMPATH - `make bench`: mempath's cpu.stream beside STREAM on
# this machine, in one run, as ratios (mempath median / STREAM best).
#
# STREAM is not shipped with mempath: point STREAM_SRC at a copy of McCalpin's
# stream.c (e.g. STREAM_SRC=~/src/STREAM/stream.c make bench). Without it the
# script still runs cpu.stream and says that the reference is missing.
# Writes docs/results/bench-<host>-<date>.md (override with BENCH_OUT).
set -eu
bin=${1:?usage: tools/bench.sh MEMPATH}
host=$(hostname)
day=$(date +%F)
out=${BENCH_OUT:-docs/results/bench-$host-$day.md}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
ncpu=$(nproc)
threads=1
t=2
while [ $t -lt "$ncpu" ]; do threads="$threads,$t"; t=$((t * 2)); done
[ "$ncpu" -gt 1 ] && threads="$threads,$ncpu"

echo "bench: cpu.stream threads=$threads (this takes a few minutes)" >&2
"$bin" probe cpu.stream threads="$threads" kernels=copy,triad pages=4k,thp --quiet \
	-o "$tmp/stream.json" >/dev/null
"$bin" report "$tmp/stream.json" --format csv >"$tmp/stream.csv"
array=$(sed -n 's/.*"array_bytes": "\([0-9.]*[KMGT]*\)".*/\1/p' "$tmp/stream.json" | head -n 1)
# "256M" -> bytes
bytes=$(echo "$array" | awk '{ v = $1 + 0; s = substr($1, length($1)); m = 1
	if (s == "K") m = 1024; if (s == "M") m = 1048576; if (s == "G") m = 1073741824
	printf "%.0f", v * m }')

{
	echo "# Bench: cpu.stream beside STREAM"
	echo
	echo "- machine: $host, $(uname -r), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $ncpu CPUs"
	echo "- date: $(date -u +%FT%TZ)"
	echo "- mempath: $("$bin" --version)"
	echo "- cpu.stream array size: $array per array ($bytes bytes); medians of 10 samples"
	echo
} >"$out"

if [ -n "${STREAM_SRC:-}" ] && [ -f "$STREAM_SRC" ]; then
	n=$((bytes / 8))
	cc -O2 -fopenmp -DSTREAM_ARRAY_SIZE="$n" -DNTIMES=20 -mcmodel=large "$STREAM_SRC" -o "$tmp/stream" 2>"$tmp/cc.log" ||
		cc -O2 -fopenmp -DSTREAM_ARRAY_SIZE="$n" -DNTIMES=20 "$STREAM_SRC" -o "$tmp/stream"
	{
		echo "STREAM: \`cc -O2 -fopenmp -DSTREAM_ARRAY_SIZE=$n -DNTIMES=20 stream.c\`, OMP_PROC_BIND=true, best of 19 (STREAM's rule)."
		echo
		echo "| kernel | threads | pages | stores | mempath median GB/s | mempath max GB/s | STREAM best GB/s | median / STREAM |"
		echo "|---|---:|---|---|---:|---:|---:|---:|"
	} >>"$out"
	for t in $(echo "$threads" | tr , ' '); do
		OMP_NUM_THREADS=$t OMP_PROC_BIND=true "$tmp/stream" >"$tmp/stream-$t.txt"
		grep -q "Solution Validates" "$tmp/stream-$t.txt" || echo "bench: STREAM did not validate at $t threads" >&2
		for k in copy triad; do
			ref=$(awk -v k="$k" 'tolower($1) == k ":" { printf "%.2f", $2 / 1000 }' "$tmp/stream-$t.txt")
			awk -F'"' -v k="$k" -v t="$t" -v ref="$ref" '
				{ split($1, a, ","); split($3, b, ",") }
				a[3] == "bandwidth" && $2 ~ ("kernel=" k ",") && $2 ~ ("threads=" t ",") {
					split($2, l, ","); pages = stores = ""
					for (i in l) { split(l[i], kv, "="); if (kv[1] == "pages") pages = kv[2]; if (kv[1] == "stores") stores = kv[2] }
					printf "| %s | %s | %s | %s | %.2f | %.2f | %s | %.2f |\n", k, t, pages, stores, b[5], b[9], ref, (ref > 0 ? b[5] / ref : 0)
				}' "$tmp/stream.csv" >>"$out"
		done
	done
else
	echo "STREAM_SRC not set: no STREAM reference in this run." >>"$out"
	echo >>"$out"
	"$bin" report "$tmp/stream.json" --format md | sed -n '/^| metric/,$p' >>"$out"
fi
echo "bench: wrote $out" >&2
