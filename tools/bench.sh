#!/bin/sh
# tools/bench.sh MEMPATH - `make bench`: mempath beside the reference tools on
# this machine, in one run, as ratios: cpu.stream beside STREAM, and
# cpu.latency beside multichase.
#
# The references are not shipped with mempath: point STREAM_SRC at a copy of
# McCalpin's stream.c and MULTICHASE_SRC at a copy of google/multichase's
# source folder (it is built here with its own Makefile, in a temporary
# folder). Without them the script still runs mempath and says that the
# reference is missing.
#   STREAM_SRC=~/src/STREAM/stream.c MULTICHASE_SRC=~/src/multichase make bench
# BENCH_ROUNDS (1) repeats every pair of runs, interleaved, so a shared
# machine shows its spread; tables give the median over rounds and the range
# of each ratio. BENCH_THREADS (1,2,4,..,ncpu) and MULTICHASE_SIZE (1G) pick
# what is measured. Writes docs/results/bench-<host>-<date>.md (BENCH_OUT).
set -eu
bin=${1:?usage: tools/bench.sh MEMPATH}
host=$(hostname)
day=$(date +%F)
out=${BENCH_OUT:-docs/results/bench-$host-$day.md}
rounds=${BENCH_ROUNDS:-1}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
ncpu=$(nproc)
threads=1
t=2
while [ $t -lt "$ncpu" ]; do threads="$threads,$t"; t=$((t * 2)); done
[ "$ncpu" -gt 1 ] && threads="$threads,$ncpu"
threads=${BENCH_THREADS:-$threads}
mcsize=${MULTICHASE_SIZE:-1G}

# "256M" -> bytes
to_bytes() {
	echo "$1" | awk '{ v = $1 + 0; s = substr($1, length($1)); m = 1
		if (s == "K") m = 1024; if (s == "M") m = 1048576; if (s == "G") m = 1073741824
		printf "%.0f", v * m }'
}

# csv_rows CSV METRIC: "labels median min max" per row of that metric
csv_rows() {
	awk -F'"' -v m="$2" '{ split($1, a, ","); split($3, b, ",") }
		a[3] == m { printf "%s %s %s %s\n", $2, b[5], b[8], b[9] }' "$1"
}

# label LABELS KEY: the value of KEY in "k=v,k=v"
label() {
	echo "$1" | tr , '\n' | sed -n "s/^$2=//p"
}

# summarise ROWS: "key value..." lines of every round -> per key the median
# of each column over rounds, and min..max of the last (the ratio)
summarise() {
	sort "$1" | awk '
		function med(s,   n, v, i, j, t) { n = split(s, v, " ")
			for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
			return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }
		function lo(s,   n, v, i, m) { n = split(s, v, " "); m = v[1]; for (i = 2; i <= n; i++) if (v[i] < m) m = v[i]; return m }
		function hi(s,   n, v, i, m) { n = split(s, v, " "); m = v[1]; for (i = 2; i <= n; i++) if (v[i] > m) m = v[i]; return m }
		{ k = $1; if (!(k in seen)) { seen[k] = 1; order[++nk] = k }
		  nc[k] = NF - 1; for (c = 2; c <= NF; c++) col[k, c] = col[k, c] " " $c }
		END { for (i = 1; i <= nk; i++) { k = order[i]; line = k
			for (c = 2; c <= nc[k] + 1; c++) line = line " " med(col[k, c])
			printf "%s %s %s\n", line, lo(col[k, nc[k] + 1]), hi(col[k, nc[k] + 1]) } }'
}

stream_round() { # stream_round ROUND
	"$bin" probe cpu.stream threads="$threads" kernels=copy,triad,memcpy pages=4k,thp --quiet \
		-o "$tmp/stream-$1.json" >/dev/null
	"$bin" report "$tmp/stream-$1.json" --format csv >"$tmp/stream-$1.csv"
	array=$(sed -n 's/.*"array_bytes": "\([0-9.]*[KMGT]*\)".*/\1/p' "$tmp/stream-$1.json" | head -n 1)
	bytes=$(to_bytes "$array")
	[ -x "$tmp/stream" ] || [ -z "${STREAM_SRC:-}" ] || {
		n=$((bytes / 8))
		cc -O2 -fopenmp -DSTREAM_ARRAY_SIZE="$n" -DNTIMES=20 -mcmodel=large "$STREAM_SRC" -o "$tmp/stream" 2>"$tmp/cc.log" ||
			cc -O2 -fopenmp -DSTREAM_ARRAY_SIZE="$n" -DNTIMES=20 "$STREAM_SRC" -o "$tmp/stream"
		echo "$n" >"$tmp/stream-n"
	}
	for t in $(echo "$threads" | tr , ' '); do
		[ -x "$tmp/stream" ] || continue
		OMP_NUM_THREADS=$t OMP_PROC_BIND=true "$tmp/stream" >"$tmp/stream-$1-$t.txt"
		grep -q "Solution Validates" "$tmp/stream-$1-$t.txt" || echo "bench: STREAM did not validate at $t threads" >&2
	done
	csv_rows "$tmp/stream-$1.csv" bandwidth | while read -r l med min max; do
		k=$(label "$l" kernel) t=$(label "$l" threads)
		ref=0
		if [ -f "$tmp/stream-$1-$t.txt" ]; then
			# STREAM's Copy is memcpy, its Triad a scalar loop: both kernels
			# that copy are set against its Copy
			sk=$k
			[ "$k" = memcpy ] && sk=copy
			ref=$(awk -v k="$sk" 'tolower($1) == k ":" { printf "%.2f", $2 / 1000 }' "$tmp/stream-$1-$t.txt")
		fi
		key="$k|$t|$(label "$l" pages)|$(label "$l" stores)"
		awk -v k="$key" -v med="$med" -v best="$max" -v ref="$ref" 'BEGIN {
			printf "%s %.2f %.2f %.2f %.3f\n", k, med, best, ref, (ref > 0 ? best / ref : 0) }'
	done >>"$tmp/stream-rows"
}

latency_round() { # latency_round ROUND
	"$bin" probe cpu.latency sizes="$mcsize" pages=4k,thp --quiet -o "$tmp/lat-$1.json" >/dev/null
	"$bin" report "$tmp/lat-$1.json" --format csv >"$tmp/lat-$1.csv"
	csv_rows "$tmp/lat-$1.csv" load_latency | while read -r l med min max; do
		o=$(label "$l" order) s=$(label "$l" stride_bytes) p=$(label "$l" pages)
		ref=0
		if [ -x "$tmp/multichase" ]; then
			# multichase -T: the locality group (the whole size for random)
			tlb=$mcsize
			[ "$o" = local ] && tlb=256k
			h=""
			[ "$p" = thp ] && h=-H
			if [ "$p" = 4k ] || [ "$thp_ok" = yes ]; then
				ref=$("$tmp/multichase" -m "$mcsize" -s "$s" -T "$tlb" $h -n 6 2>/dev/null | tail -n 1)
			fi
		fi
		key="$o|$s|$p"
		awk -v k="$key" -v med="$med" -v best="$min" -v ref="${ref:-0}" 'BEGIN {
			printf "%s %.1f %.1f %.1f %.3f\n", k, med, best, ref, (ref > 0 ? best / ref : 0) }'
	done >>"$tmp/lat-rows"
}

# multichase -H rewrites THP settings it does not like (enabled never, defrag
# never or defer): run it with THP only where it will not, since nothing here
# may change the machine.
thp_ok=no
en=$(sed -n 's/.*\[\(.*\)\].*/\1/p' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || true)
df=$(sed -n 's/.*\[\(.*\)\].*/\1/p' /sys/kernel/mm/transparent_hugepage/defrag 2>/dev/null || true)
case "$en/$df" in always/always | always/defer+madvise | always/madvise | madvise/always | madvise/defer+madvise | madvise/madvise) thp_ok=yes ;; esac
if [ -n "${MULTICHASE_SRC:-}" ] && [ -f "$MULTICHASE_SRC/multichase.c" ]; then
	cp -r "$MULTICHASE_SRC" "$tmp/mc-src"
	# its Makefile links statically; where libc.a is missing, dynamically
	{ make -C "$tmp/mc-src" multichase >"$tmp/mc-build.log" 2>&1 ||
		make -C "$tmp/mc-src" multichase LDFLAGS="-g -O3 -pthread" >>"$tmp/mc-build.log" 2>&1; } &&
		cp "$tmp/mc-src/multichase" "$tmp/multichase" ||
		echo "bench: multichase did not build: $(tail -n 3 "$tmp/mc-build.log")" >&2
fi

echo "bench: $rounds round(s) of cpu.stream threads=$threads and cpu.latency size $mcsize, each beside its reference (minutes)" >&2
r=1
while [ $r -le "$rounds" ]; do
	stream_round $r
	latency_round $r
	r=$((r + 1))
done

{
	echo "# Bench: mempath beside STREAM and multichase"
	echo
	echo "- machine: $host, $(uname -r), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $ncpu CPUs"
	echo "- date: $(date -u +%FT%TZ); load average before the tables: $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "- mempath: $("$bin" --version); $rounds round(s), each pair run back to back"
	echo "- cpu.stream array size: $array per array ($bytes bytes); mempath median and best of 10 samples"
	echo
	echo "## cpu.stream and STREAM"
	echo
	if [ -x "$tmp/stream" ]; then
		echo "STREAM: \`cc -O2 -fopenmp -DSTREAM_ARRAY_SIZE=$(cat "$tmp/stream-n") -DNTIMES=20 stream.c\`, OMP_PROC_BIND=true, best of 19 (STREAM's rule). Its Copy compiles to libc memcpy, its Triad to a scalar loop (objdump); copy and memcpy are both set against its Copy."
	else
		echo "STREAM_SRC not set: no STREAM reference in this run."
	fi
	echo
	echo "| kernel | threads | pages | stores | mempath median GB/s | mempath best GB/s | STREAM best GB/s | best / STREAM best | range over rounds |"
	echo "|---|---:|---|---|---:|---:|---:|---:|---|"
	summarise "$tmp/stream-rows" | awk '{ split($1, k, "|")
		printf "| %s | %s | %s | %s | %.2f | %.2f | %s | %s | %s-%s |\n", k[1], k[2], k[3], k[4], $2, $3, ($4 > 0 ? sprintf("%.2f", $4) : "-"), ($5 > 0 ? sprintf("%.3f", $5) : "-"), ($6 > 0 ? sprintf("%.3f", $6) : "-"), ($7 > 0 ? sprintf("%.3f", $7) : "-") }'
	echo
	echo "## cpu.latency and multichase ($mcsize)"
	echo
	if [ -x "$tmp/multichase" ]; then
		echo "multichase built from MULTICHASE_SRC with its own Makefile; \`multichase -m $mcsize -s STRIDE -T GROUP [-H] -n 6\` (its best 0.5 s sample; -T $mcsize: random, -T 256k: local, its default). THP rows $( [ "$thp_ok" = yes ] && echo "measured" || echo "skipped: multichase -H would rewrite this machine's THP settings")."
	else
		echo "MULTICHASE_SRC not set or not built: no multichase reference in this run."
	fi
	echo
	echo "| order | stride B | pages | mempath median ns | mempath best ns | multichase ns | best / multichase | range over rounds |"
	echo "|---|---:|---|---:|---:|---:|---:|---|"
	summarise "$tmp/lat-rows" | awk '{ split($1, k, "|")
		printf "| %s | %s | %s | %.1f | %.1f | %s | %s | %s-%s |\n", k[1], k[2], k[3], $2, $3, ($4 > 0 ? sprintf("%.1f", $4) : "-"), ($5 > 0 ? sprintf("%.3f", $5) : "-"), ($6 > 0 ? sprintf("%.3f", $6) : "-"), ($7 > 0 ? sprintf("%.3f", $7) : "-") }'
	echo
	echo "translation check (cpu.latency, last round): $(sed -n 's/.*"translation_check": "\([^"]*\)".*/\1/p' "$tmp/lat-$rounds.json" | head -n 1)"
	echo
} >"$out"
echo "bench: wrote $out" >&2
