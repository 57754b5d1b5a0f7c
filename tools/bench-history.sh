#!/bin/sh
# tools/bench-history.sh MEMPATH - `make bench`: the history at 10,000 runs
# (BENCH_RUNS). Makes that many small results files (two probes, five
# metrics of 10 samples each, like a quick CPU run in miniature), then
# times adding them all to a new history in one 'history add' and one
# 'history trend' over them, then the trend with change points over the
# same 10,000 runs (one series, 10% lower from the middle on; PELT and its
# tests: docs/design.md §3.5).
# Targets: add and trend under 2 s together; the trend with change points
# under 2 s.
# Appends to docs/results/bench-<host>-<date>.md (BENCH_OUT).
set -eu
bin=${1:?usage: tools/bench-history.sh MEMPATH}
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac # the adds run in a folder of their own
n=${BENCH_RUNS:-10000}
out=${BENCH_OUT:-docs/results/bench-$(hostname)-$(date +%F).md}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir "$tmp/runs"
# the step: the runs from k on 10% lower, k where the months turn (start
# times are in the order of the runs across months, not within one: the
# days wrap), so the step is one in time order too; it begins at its
# earliest run, whose id (the file r%05d is run i + 1) goes to $tmp/first
k=$((n >= 5760 ? 2880 : n / 2))
awk -v n="$n" -v k="$k" -v dir="$tmp/runs" 'BEGIN {
	srand(1)
	for (i = 0; i < n; i++) {
		f = sprintf("%s/r%05d.json", dir, i)
		printf "{\"schema\": \"mempath/run/1\", \"label\": \"b%d\", \"suite\": \"quick\",", i >f
		t = sprintf("2026-%02d-%02dT%02d:%02d:%02dZ", 1 + int(i / 2880) % 12,
			1 + int(i / 96) % 28, int(i / 4) % 24, (i * 7) % 60, i % 60)
		printf " \"start_time\": \"%s\",", t >f
		if (i >= k && (first == "" || t < first_t)) { first = i + 1; first_t = t }
		printf " \"host\": {\"hostname\": \"bench\", \"cpu\": {\"model\": \"Bench CPU\"," >f
		printf " \"logical_cpus\": 8}}, \"probes\": [" >f
		for (p = 0; p < 2; p++) {
			printf "%s{\"name\": \"bench.p%d\", \"status\": \"ok\", \"params\": {},", p ? "," : "", p >f
			printf " \"metrics\": [" >f
			for (m = 0; m < 5; m++) {
				printf "%s{\"name\": \"rate\", \"unit\": \"GB/s\", \"better\": \"higher\",", m ? "," : "" >f
				printf " \"labels\": {\"threads\": \"%d\"}, \"samples\": [", 2 ^ m >f
				# the series the trend reads (p1, threads=16) 10% lower
				# from run k on: one change point to find in time order
				step = p == 1 && m == 4 && i >= k ? 0.9 : 1
				for (s = 0; s < 10; s++)
					printf "%s%.3f", s ? "," : "", 10 * (m + 1) * step * (1 + 0.05 * rand()) >f
				printf "]}" >f
			}
			printf "]}" >f
		}
		printf "]}\n" >f
		close(f)
	}
	print first >(dir "/../first") }'
# CPU time of the children so far (user + sys) from the shell's times, at
# the top level: in a pipeline or $(...) it would report a subshell's
times >"$tmp/c0"
t0=$(date +%s.%N)
(cd "$tmp/runs" && "$bin" history --db "$tmp/h.db" add r*.json >"$tmp/add.txt")
t1=$(date +%s.%N)
times >"$tmp/c1"
"$bin" history --db "$tmp/h.db" trend bench.p1:rate,threads=16 --format csv >"$tmp/trend.csv"
t2=$(date +%s.%N)
times >"$tmp/c2"
"$bin" history --db "$tmp/h.db" trend bench.p1:rate,threads=16 --changepoints --format csv >"$tmp/cp.csv"
t3=$(date +%s.%N)
times >"$tmp/c3"
cpu() { awk 'NR == 2 { gsub(/[ms]/, " "); print $1 * 60 + $2 + $3 * 60 + $4 }' "$1"; }
c0=$(cpu "$tmp/c0")
c1=$(cpu "$tmp/c1")
c2=$(cpu "$tmp/c2")
c3=$(cpu "$tmp/c3")
added=$(grep -c '^added run' "$tmp/add.txt")
points=$(($(wc -l <"$tmp/trend.csv") - 1))
add_s=$(echo "$t0 $t1" | awk '{ printf "%.2f", $2 - $1 }')
trend_s=$(echo "$t1 $t2" | awk '{ printf "%.2f", $2 - $1 }')
add_cpu=$(echo "$c0 $c1" | awk '{ printf "%.2f", $2 - $1 }')
trend_cpu=$(echo "$c1 $c2" | awk '{ printf "%.2f", $2 - $1 }')
cp_s=$(echo "$t2 $t3" | awk '{ printf "%.2f", $2 - $1 }')
cp_cpu=$(echo "$c2 $c3" | awk '{ printf "%.2f", $2 - $1 }')
changes=$(($(wc -l <"$tmp/cp.csv") - 1))
load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo "?")
{
	echo
	echo "## history at $n runs"
	echo
	echo "- machine: $(hostname), $(nproc) CPUs; $(date -u +%FT%TZ); $("$bin" --version)"
	echo "- add $n results files in one 'history add': ${add_s} s wall, ${add_cpu} s CPU ($added added)"
	echo "- trend of one metric over them: ${trend_s} s wall, ${trend_cpu} s CPU ($points points)"
	echo "- trend with change points over the same runs: ${cp_s} s wall, ${cp_cpu} s CPU ($changes change point(s) found, 1 planted, beginning at run $(cat "$tmp/first"): $(tail -n +2 "$tmp/cp.csv" | cut -d, -f5 | tr '\n' ' '); target under 2 s)"
	echo "- load average at the end: $load (wall time grows with it; CPU time does not)"
	echo "- target: under 2 s together; database $(du -k "$tmp/h.db" | cut -f1) KiB"
} >>"$out"
echo "bench: history, $n runs: add ${add_s} s (${add_cpu} s CPU), trend ${trend_s} s (${trend_cpu} s CPU), with change points ${cp_s} s (${cp_cpu} s CPU, $changes found); load $load" >&2
[ "$added" -eq "$n" ] && [ "$points" -eq "$n" ] || { echo "bench: history lost runs" >&2; exit 1; }
