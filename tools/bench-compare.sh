#!/bin/sh
# tools/bench-compare.sh MEMPATH - `make bench`: compare on large legs. Two
# results files of one metric with N samples each (2 million by default,
# BENCH_SAMPLES), written here; the time compare takes on them (read, join,
# U test, bootstrap CI), best of three. Target: under 5 s for 2M a leg.
# Appends to docs/results/bench-<host>-<date>.md (BENCH_OUT).
set -eu
bin=${1:?usage: tools/bench-compare.sh MEMPATH}
n=${BENCH_SAMPLES:-2000000}
out=${BENCH_OUT:-docs/results/bench-$(hostname)-$(date +%F).md}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
leg() { # leg FILE LABEL MU SEED: n samples of a noisy MU
	awk -v n="$n" -v label="$2" -v mu="$3" -v seed="$4" 'BEGIN {
		srand(seed)
		printf "{\"schema\": \"mempath/run/1\", \"label\": \"%s\", \"host\": {},", label
		printf " \"probes\": [{\"name\": \"bench.x\", \"status\": \"ok\", \"params\": {},"
		printf " \"metrics\": [{\"name\": \"rate\", \"unit\": \"GB/s\", \"better\": \"higher\","
		printf " \"labels\": {}, \"samples\": ["
		for (i = 0; i < n; i++)
			printf "%s%.4f", i ? "," : "", mu * (1 + 0.05 * (rand() + rand() + rand() - 1.5))
		printf "]}]}]}\n" }' >"$1"
}
leg "$tmp/a.json" stock 100 1
leg "$tmp/b.json" patched 101 2
best=""
for i in 1 2 3; do
	s=$(date +%s.%N)
	"$bin" compare "$tmp/a.json" "$tmp/b.json" >"$tmp/out.txt"
	e=$(date +%s.%N)
	t=$(echo "$s $e" | awk '{ printf "%.2f", $2 - $1 }')
	best=$(awk -v b="$best" -v t="$t" 'BEGIN { print (b == "" || t + 0 < b + 0) ? t : b }')
done
row=$(grep '^bench.x rate' "$tmp/out.txt")
{
	echo
	echo "## compare on $n samples a leg"
	echo
	echo "- machine: $(hostname), $(nproc) CPUs; $(date -u +%FT%TZ); $("$bin" --version)"
	echo "- best of 3: ${best} s (target: under 5 s for 2M a leg)"
	echo "- the row: \`$row\`"
} >>"$out"
echo "bench: compare, $n samples a leg: ${best} s (best of 3)" >&2
