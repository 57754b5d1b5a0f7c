#!/bin/sh
# tools/bench-counters.sh MEMPATH - `make bench`: what the counters around
# every sample window (docs/design.md §4.17) cost the figures, as a ratio in
# one run: for cpu.stream and cpu.latency an A/B in BENCH_COUNTERS_ROUNDS (6)
# rounds (mempath ab --rounds: A = MEMPATH_COUNTERS=off, B = the counters
# on, ABBA order, 6 samples a leg), each round judged B against A, so that
# a load which comes and goes between rounds, or drift, cancels (rounds
# whose legs ran under different load are left out, §4.14). The cost is
# the comparison's change of the medians oriented so that above 0 is slower
# with the counters (a rate's change negated), with its 95% CI: the cost is
# shown to be within 1% when the CI lies within -1%..+1% (a CI reaching far
# below 0 is the machine's noise, not a saving); beside it each round's own
# pair of legs, every round (a VOID row has no CI). Metrics with
# no better direction (thp_backed) are left out. The readings' own time is
# tabled too, by source (counter_sources' readings entry).
# Run it where tracefs is mounted to include the tracepoints' reads (e.g.
# unshare -m sh -c 'mount -t tracefs nodev /sys/kernel/tracing && make bench').
# BENCH_COUNTERS_STREAM and BENCH_COUNTERS_LATENCY pick the
# options (defaults: threads=1 pages=thp kernels=copy,triad, the arrays
# sized from the LLC; and sizes=256M pages=thp order=random). A knob that
# changes between legs (another user flipping THP) refuses the comparison:
# the table says so. Writes
# docs/results/counters-overhead-<host>-<date>.md (BENCH_OUT).
set -eu
bin=${1:?usage: tools/bench-counters.sh MEMPATH}
host=$(hostname)
day=$(date +%F)
out=${BENCH_OUT:-docs/results/counters-overhead-$host-$day.md}
rounds=${BENCH_COUNTERS_ROUNDS:-6}
# cpu.stream at its own size (each array 4x the LLC): below 4x the LLC its
# DRAM receipt fails and the comparison voids the row (§4.18)
stream=${BENCH_COUNTERS_STREAM:-threads=1 pages=thp kernels=copy,triad stores=temporal}
latency=${BENCH_COUNTERS_LATENCY:-sizes=256M pages=thp order=random}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

# The cost as a ratio in one run, each probe an A/B in rounds (mempath ab
# --rounds: A = MEMPATH_COUNTERS=off, B = counters on, the legs in ABBA
# order, each round judged B against A so that a load which comes and goes
# between rounds, or drift, cancels; rounds whose legs ran under different
# load are left out), with --reps rounds x 6 (6 samples a leg).
for p in stream latency; do
	eval opts=\$$p
	# shellcheck disable=SC2086 # the options are words
	"$bin" ab --rounds "$rounds" --a-env MEMPATH_COUNTERS=off --label-a off --label-b on \
		-o "$tmp/ab-$p" -- probe "cpu.$p" $opts --reps $((rounds * 6)) >"$tmp/ab-$p.txt" 2>&1 ||
		[ $? -eq 3 ] || { cat "$tmp/ab-$p.txt" >&2; exit 1; }
	grep -A3 '^knobs differ' "$tmp/ab-$p.txt" | grep '^  knob' >"$tmp/knobs-$p" || true
	"$bin" report "$tmp/ab-$p/compare.json" --format csv >"$tmp/$p.csv"
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

# "probe metric labels cost lo hi verdict rmed rmin rmax n": the cost as
# the comparison's change of the medians oriented so that above 0 is slower
# with the counters (a rate's change negated) and its 95% CI, in percent
# ("-" where the comparison gave none: a VOID row, too few rounds); then the
# same from each round's own pair of legs (on/off - 1, off/on - 1 for a
# rate), their median, least and most, over every round, used or not
for p in stream latency; do
	unq "$tmp/$p.csv" | awk -F, -v p="cpu.$p" '
	NR == 1 { for (i = 4; i <= NF - 6; i++) { split($i, h, " "); leg[i] = h[1]; rnd[i] = h[2] }; next }
	$3 == "none" { next }
	{ split($1, k, " "); s = $3 == "higher" ? -1 : 1; n = 0; delete on; delete off
	  for (i = 4; i <= NF - 6; i++) if ($i != "") { if (leg[i] == "on") on[rnd[i]] = $i; else off[rnd[i]] = $i }
	  for (r in on) if ((r in off) && on[r] > 0 && off[r] > 0) v[++n] = 100 * (s > 0 ? on[r] / off[r] - 1 : off[r] / on[r] - 1)
	  for (a = 1; a <= n; a++) for (b = a + 1; b <= n; b++) if (v[b] < v[a]) { t = v[a]; v[a] = v[b]; v[b] = t }
	  rs = n ? sprintf("%.2f %.2f %.2f %d", n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2, v[1], v[n], n) : "- - - 0"
	  if ($(NF - 5) == "" || $(NF - 4) == "") { printf "%s %s %s - - - %s %s\n", p, k[2], k[3] == "" ? "-" : k[3], $(NF - 1), rs; next }
	  c = s * $(NF - 5); lo = s * (s > 0 ? $(NF - 4) : $(NF - 3)); hi = s * (s > 0 ? $(NF - 3) : $(NF - 4))
	  printf "%s %s %s %.2f %.2f %.2f %s %s\n", p, k[2], k[3] == "" ? "-" : k[3], 100 * c, 100 * lo, 100 * hi, $(NF - 1), rs }'
done >"$tmp/costs"

{
	echo "# Counters' overhead: cpu.stream and cpu.latency, counters on beside MEMPATH_COUNTERS=off"
	echo
	echo "Machine: $host ($(nproc) CPUs, $(uname -r), $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1))."
	echo "Date: $day. Written by tools/bench-counters.sh: each probe an A/B in $rounds rounds"
	echo "(mempath ab --rounds, A = MEMPATH_COUNTERS=off, B = on, ABBA order), judged round"
	echo "by round; rounds whose legs ran under different load are left out."
	echo
	echo "Options: cpu.stream $stream; cpu.latency $latency."
	echo "Counter sources read with the counters on (cpu.stream, round 1): $(tr -d ' \n' <"$(ls "$tmp"/ab-stream/leg-*-r1-on.json | head -1)" |
		grep -o '"source":"[a-z]*","state":"[a-z]*"' | sed 's/"source":"\([a-z]*\)","state":"\([a-z]*\)"/\1 \2;/g' | tr '\n' ' ')"
	echo
	echo "Cost = the change of the medians with the counters on, oriented so that above 0 is"
	echo "slower (a rate's change negated), with its 95% CI over the rounds used."
	echo
	echo "Each round's own pair: on/off - 1 of its two legs' medians (off/on - 1 for a rate),"
	echo "every round, used by the comparison or not: their median, least and most."
	echo
	echo "| probe | metric | labels | cost | 95% CI | within 1% | verdict | rounds: median | least | most | n |"
	echo "|---|---|---|---|---|---|---|---|---|---|---|"
	while read -r probe metric labels cost lo hi verdict rmed rmin rmax rn; do
		w=not\ shown
		[ "$cost" != - ] && w=$(awk -v l="$lo" -v h="$hi" 'BEGIN { print l >= -1 && h <= 1 ? "yes" : "not shown" }')
		[ "$cost" != - ] && cost="${cost}%" && lo="[${lo}, ${hi}]%"
		echo "| $probe | $metric | $(echo "$labels" | tr ';' ',') | $cost | $lo | $w | $verdict | ${rmed}% | ${rmin}% | ${rmax}% | $rn |"
	done <"$tmp/costs"
	echo
	for p in stream latency; do
		echo "cpu.$p: $(grep -m1 -E '^summary:|^no trusted verdict' "$tmp/ab-$p.txt")"
		[ -s "$tmp/knobs-$p" ] && echo "(refused: a knob changed between its legs:$(tr -s ' ' <"$tmp/knobs-$p" | tr '\n' ';'))"
		grep -o '  VOID: .*' "$tmp/ab-$p.txt" | sed 's/^  /(/; s/$/)/' | sort -u
		echo
	done
	echo "The readings' own time (counter_sources' readings entry, every leg with the counters"
	echo "on): a reading sits between two timed operations, so its share of a 50 ms sample"
	echo "window bounds what it can cost a figure; then the mean by source."
	echo
	echo "| probe | readings | mean us | longest us | mean / 50 ms | by source (mean us) |"
	echo "|---|---|---|---|---|---|"
	for p in stream latency; do
		for f in "$tmp"/ab-$p/leg-*-on.json; do tr -d ' \n' <"$f"; echo; done |
			grep -o '"source":"readings","state":"ok","n":[0-9]*,"mean_us":[0-9.e+-]*,"max_us":[0-9.e+-]*\(,"by_source_us":{[^}]*}\)\{0,1\}' |
			sed 's/.*"n":\([0-9]*\),"mean_us":\([^,]*\),"max_us":\([^,]*\)\(,"by_source_us":{\([^}]*\)}\)\{0,1\}/\1 \2 \3 \5/' |
			awk -v p=cpu.$p '{ n += $1; s += $1 * $2; if ($3 > m) m = $3
				k = split($4, kv, ","); for (i = 1; i <= k; i++) { split(kv[i], e, ":"); gsub(/"/, "", e[1]); by[e[1]] += $1 * e[2]; if (!(e[1] in seen)) { seen[e[1]] = 1; ord[++no] = e[1] } } }
			END { if (!n) exit; b = ""; for (i = 1; i <= no; i++) b = b sprintf("%s%s %.1f", b == "" ? "" : ", ", ord[i], by[ord[i]] / n)
				printf "| %s | %d | %.1f | %.1f | %.3f%% | %s |\n", p, n, s / n, m, s / n / 50000 * 100, b == "" ? "-" : b }'
	done
} >"$out"
echo "bench-counters: $out"
