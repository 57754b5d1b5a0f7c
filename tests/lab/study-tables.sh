#!/bin/sh
# tests/lab/study-tables.sh PLAN_DIR - the lab study's tables (a tiering report's
# layout) from the plan's leg files, in Markdown on stdout: per variant the
# reader's throughput over all its runs (mean +- stddev, vs the baseline),
# its throughput per repetition of each leg (convergence as pages move), the
# counters' deltas per run (those that rose from zero in any variant first),
# and where its memory was. Variants and their legs are read from the files'
# names (leg-N-rR-VARIANT.json) in plan order, the baseline the first leg's.
# Needs jq. The N-variant comparison (verdicts, CIs, family error control) is
# the study compare's; these are its descriptive tables.
set -u
p=$1
command -v jq >/dev/null 2>&1 || { echo "study-tables: no jq"; exit 77; }
files=""
n=0
while [ -e "$(echo "$p/leg-$((n + 1))-r"*.json)" ]; do
	n=$((n + 1))
	files="$files $(echo "$p/leg-$n-r"*.json)"
done
variants=$(for f in $files; do basename "$f" .json | sed 's/^leg-[0-9]*-r[0-9]*-//'; done | awk '!seen[$0]++')
base=$(echo "$variants" | head -n 1)
# samples VARIANT METRIC [LABELKEY LABELVALUE]: every run's value, one a line
samples() {
	for f in $files; do
		case $f in *-r*-"$1".json) ;; *) continue ;; esac
		jq -r --arg m "$2" --arg k "${3:-}" --arg v "${4:-}" '.probes[].metrics[]
			| select(.name == $m and ($k == "" or .labels[$k] == $v)) | .samples[]' "$f"
	done
}
# per-repetition: the i-th sample of each leg
rep() {
	for f in $files; do
		case $f in *-r*-"$1".json) ;; *) continue ;; esac
		jq -r --arg m "$2" --argjson i "$3" '.probes[].metrics[] | select(.name == $m) | .samples[$i]' "$f"
	done
}
stat() { awk '{ s += $1; q += $1 * $1; n++ } END { if (n) { m = s / n; v = n > 1 ? (q - n * m * m) / (n - 1) : 0; printf "%.4g %.3g %d\n", m, sqrt(v > 0 ? v : 0), n } }'; }
bm=$(samples "$base" pass_rate | stat | cut -d' ' -f1)
echo "**Table 1: the reader's throughput (pass_rate, passes/s of 96 MiB; the emulator's, not a memory figure) and wall time per run**"
echo
echo "| variant | kernel | pass_rate mean | stddev | runs | vs $base | wall_time mean (s) | stddev |"
echo "|---|---|---|---|---|---|---|---|"
for v in $variants; do
	set -- $(samples "$v" pass_rate | stat)
	w=$(samples "$v" wall_time | stat)
	k=$(jq -r '.host.kernel' "$(echo "$p"/leg-*-r1-"$v".json)")
	echo "| $v | $k | $1 | $2 | $3 | $(awk -v a="$1" -v b="$bm" 'BEGIN { printf "%.2fx", a / b }') | $(echo "$w" | cut -d' ' -f1) | $(echo "$w" | cut -d' ' -f2) |"
done
echo
echo "**Table 1b: pass_rate per repetition of a leg (wrap -n 3: runs 1, 2, 3), mean over the variant's legs**"
echo
echo "| variant | run 1 | run 2 | run 3 |"
echo "|---|---|---|---|"
for v in $variants; do
	echo "| $v | $(rep "$v" pass_rate 0 | stat | cut -d' ' -f1) | $(rep "$v" pass_rate 1 | stat | cut -d' ' -f1) | $(rep "$v" pass_rate 2 | stat | cut -d' ' -f1) |"
done
echo
echo "**Table 2: the counters' deltas per run (vmstat, the whole guest's, mean over the variant's runs); counters zero in $base and not elsewhere first**"
echo
counters=$(for f in $files; do jq -r '.probes[].metrics[] | select(.name == "vmstat") | .labels.counter' "$f"; done | awk '!seen[$0]++')
printf '| counter |'
for v in $variants; do printf ' %s |' "$v"; done
echo
printf '|---|'
for v in $variants; do printf -- '---|'; done
echo
for c in $counters; do
	row="" zero_base=0 moved=0
	for v in $variants; do
		m=$(samples "$v" vmstat counter "$c" | stat | cut -d' ' -f1)
		row="$row $m |"
		[ "$v" = "$base" ] && [ "$m" = 0 ] && zero_base=1
		[ "$v" != "$base" ] && [ "$m" != 0 ] && moved=1
	done
	echo "$((zero_base * moved)) | $c |$row"
done | sort -t'|' -k1,1nr -s | sed 's/^[01] //'
echo
echo "**Table 3: where the reader's memory was (numa_maps, MiB, the most over a run, mean over the variant's runs)**"
echo
echo "| variant | node 0 (DRAM, CPU 0) | node 1 (DRAM, CPU 1) | node 2 (memory only, lower tier) |"
echo "|---|---|---|---|"
for v in $variants; do
	echo "| $v | $(samples "$v" node_mem node 0 | stat | cut -d' ' -f1) | $(samples "$v" node_mem node 1 | stat | cut -d' ' -f1) | $(samples "$v" node_mem node 2 | stat | cut -d' ' -f1) |"
done
