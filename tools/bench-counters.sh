#!/bin/sh
# tools/bench-counters.sh MEMPATH - `make bench`: what the counters around
# every sample window (docs/design.md §4.17) cost the figures, as ratios in
# one run: cpu.stream and cpu.latency with the counters on, beside the same
# probe with MEMPATH_COUNTERS=off, interleaved (on, off, off, on, ...) over
# BENCH_COUNTERS_ROUNDS (4) rounds. The ratio is of the medians, on/off, for
# each metric of each round (higher-is-better metrics: off/on, so that above
# 1 is always the cost); the table gives the median ratio over rounds and
# its range; metrics with no better direction (thp_backed) are left out.
# Run it where tracefs is mounted to include the tracepoints' reads (e.g.
# unshare -m sh -c 'mount -t tracefs nodev /sys/kernel/tracing && make bench').
# BENCH_COUNTERS_STREAM and BENCH_COUNTERS_LATENCY pick the
# options (defaults: threads=1 size=256M pages=thp kernels=copy,triad; and
# sizes=256M pages=thp order=random). Writes
# docs/results/counters-overhead-<host>-<date>.md (BENCH_OUT).
set -eu
bin=${1:?usage: tools/bench-counters.sh MEMPATH}
host=$(hostname)
day=$(date +%F)
out=${BENCH_OUT:-docs/results/counters-overhead-$host-$day.md}
rounds=${BENCH_COUNTERS_ROUNDS:-4}
stream=${BENCH_COUNTERS_STREAM:-threads=1 size=256M pages=thp kernels=copy,triad stores=temporal}
latency=${BENCH_COUNTERS_LATENCY:-sizes=256M pages=thp order=random}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

# run PROBE OPTS TAG: one results file $tmp/TAG.csv
run() {
	probe=$1 opts=$2 tag=$3
	# shellcheck disable=SC2086 # the options are words
	if [ "${tag#*off}" != "$tag" ]; then
		MEMPATH_COUNTERS=off "$bin" probe --quiet -o "$tmp/$tag.json" "$probe" $opts >/dev/null
	else
		"$bin" probe --quiet -o "$tmp/$tag.json" "$probe" $opts >/dev/null
	fi
	"$bin" report "$tmp/$tag.json" --format csv >"$tmp/$tag.csv"
}

r=1
while [ $r -le "$rounds" ]; do
	for p in stream latency; do
		eval opts=\$$p
		if [ $((r % 2)) -eq 1 ]; then first=on second=off; else first=off second=on; fi
		run "cpu.$p" "$opts" "$p-$r-$first"
		run "cpu.$p" "$opts" "$p-$r-$second"
	done
	r=$((r + 1))
done

# unquote CSV: the labels' commas become ';'
unq() {
	awk '{ o = ""; q = 0
		for (i = 1; i <= length($0); i++) { c = substr($0, i, 1)
			if (c == "\"") { q = !q; continue }
			if (c == "," && q) c = ";"
			o = o c }
		print o }' "$1"
}

# ratios: "probe metric labels round cost" (the cost: > 1 is slower with counters)
for p in stream latency; do
	r=1
	while [ $r -le "$rounds" ]; do
		unq "$tmp/$p-$r-on.csv" >"$tmp/on.csv"
		unq "$tmp/$p-$r-off.csv" >"$tmp/off.csv"
		awk -F, -v r=$r -v p="cpu.$p" '
		FNR == 1 { f++; next }
		$6 == "none" { next } # not a figure of speed (thp_backed)
		{ key = $3 " " ($4 == "" ? "-" : $4); med = $8
		  if (f == 1) { on[key] = med; better[key] = $6 } else off[key] = med }
		END { for (k in on) if ((k in off) && on[k] > 0 && off[k] > 0)
			printf "%s %s %d %.6f\n", p, k, r, better[k] == "higher" ? off[k] / on[k] : on[k] / off[k] }' \
			"$tmp/on.csv" "$tmp/off.csv"
		r=$((r + 1))
	done
done >"$tmp/ratios"

# median MIN MAX N of the numbers on stdin
summ() {
	sort -g | awk '{ v[++n] = $1 } END { if (!n) exit
		printf "%.4f %.4f %.4f %d\n", n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2, v[1], v[n], n }'
}

{
	echo "# Counters' overhead: cpu.stream and cpu.latency, counters on beside MEMPATH_COUNTERS=off"
	echo
	echo "Machine: $host ($(nproc) CPUs, $(uname -r), $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1))."
	echo "Date: $day. Written by tools/bench-counters.sh ($rounds rounds, on and off interleaved)."
	echo "The machine may have been shared while this ran (the dev VM is: other work ran"
	echo "beside it); the ratios are within one run, each round's pair back to back."
	echo
	echo "Options: cpu.stream $stream; cpu.latency $latency."
	echo "Counter sources read with the counters on (cpu.stream, round 1): $(tr -d ' \n' <"$tmp/stream-1-on.json" |
		grep -o '"source":"[a-z]*","state":"[a-z]*"' | sed 's/"source":"\([a-z]*\)","state":"\([a-z]*\)"/\1 \2;/g' | tr '\n' ' ')"
	echo
	echo "Cost = on/off of the medians (off/on for higher-is-better figures): 1.00 is no cost."
	echo
	echo "| probe | metric | labels | median cost | min | max | rounds |"
	echo "|---|---|---|---|---|---|---|"
	cut -d' ' -f1-3 "$tmp/ratios" | sort -u | while read -r probe metric labels; do
		set -- $(awk -v p="$probe" -v m="$metric" -v l="$labels" '$1 == p && $2 == m && $3 == l { print $5 }' "$tmp/ratios" | summ)
		echo "| $probe | $metric | $(echo "$labels" | tr ';' ',') | $1 | $2 | $3 | $4 |"
	done
	echo
	for p in cpu.stream cpu.latency; do
		set -- $(awk -v p=$p '$1 == p { print $5 }' "$tmp/ratios" | summ)
		echo "$p: median cost $1 over $4 ratios ($2..$3)."
		echo
	done
	echo "The readings' own time (counter_sources' readings entry, every run with the counters"
	echo "on): a reading sits between two timed operations, so its share of a 50 ms sample"
	echo "window bounds what it can cost a figure."
	echo
	echo "| probe | readings | mean us | longest us | mean / 50 ms |"
	echo "|---|---|---|---|---|"
	for p in stream latency; do
		cat "$tmp"/$p-*-on.json | tr -d ' \n' | grep -o '"source":"readings","state":"ok","n":[0-9]*,"mean_us":[0-9.e+-]*,"max_us":[0-9.e+-]*' |
			sed 's/.*"n":\([0-9]*\),"mean_us":\([^,]*\),"max_us":\(.*\)/\1 \2 \3/' |
			awk -v p=cpu.$p '{ n += $1; s += $1 * $2; if ($3 > m) m = $3 }
			END { if (n) printf "| %s | %d | %.1f | %.1f | %.3f%% |\n", p, n, s / n, m, s / n / 50000 * 100 }'
	done
} >"$out"
echo "bench-counters: $out"
