#!/bin/sh
# tools/bench-fleet.sh MEMPATH - `make bench`: a fleet of N nodes (1,000 by
# default, BENCH_NODES) from perturbed copies of the committed quick run of
# the dev VM (every sample times 1 + 2% noise, its own per node; three nodes
# planted 20% slow), then `fleet merge` (read, judge, write the fleet file,
# print the report) and `report --format html` of that file, each timed with
# its peak memory. Target: under 10 s and under 1 GiB each on the 2-core dev
# VM (docs/fleet.md). Appends to docs/results/bench-<host>-<date>.md
# (BENCH_OUT).
set -eu
bin=${1:?usage: tools/bench-fleet.sh MEMPATH}
n=${BENCH_NODES:-1000}
src=${BENCH_RUN:-docs/results/vm-quick-2026-11-30.json}
out=${BENCH_OUT:-docs/results/bench-$(hostname)-$(date +%F).md}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
[ -x /usr/bin/time ] || { echo "bench-fleet: needs GNU time (/usr/bin/time)" >&2; exit 1; }
echo "bench: writing $n node files" >&2
# one awk for all the files: the template read once, each node written with
# its host name and its own noise; nodes 7, n/2 and n-3 read 20% slow
awk -v n="$n" -v dir="$tmp" '
{ line[NR] = $0 }
END {
	for (k = 1; k <= n; k++) {
		srand(k)
		f = sprintf("%s/node%05d.json", dir, k)
		slow = (k == 7 || k == int(n / 2) || k == n - 3) ? 0.8 : 1
		inside = 0
		for (i = 1; i <= NR; i++) {
			l = line[i]
			if (l ~ /"hostname": "/)
				sub(/"hostname": "[^"]*"/, sprintf("\"hostname\": \"node%05d\"", k), l)
			else if (l ~ /"(samples|warmups)": \[\]/)
				;
			else if (l ~ /"(samples|warmups)": \[/)
				inside = 1
			else if (inside && l ~ /^ *\]/)
				inside = 0
			else if (inside) {
				v = l; gsub(/[ ,]/, "", v)
				x = v * slow * (1 + 0.02 * (rand() + rand() + rand() - 1.5))
				sub(/[0-9.eE+-]+/, sprintf("%.6g", x), l)
			}
			print l > f
		}
		close(f)
	}
}' "$src"
measure() { # measure NAME CMD...: seconds and peak RSS (MiB) of CMD
	name=$1
	shift
	/usr/bin/time -f '%e %M' -o "$tmp/$name.time" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" || true
	read -r secs kib <<EOT
$(tail -n 1 "$tmp/$name.time")
EOT
	eval "${name}_s=$secs ${name}_mib=$((kib / 1024))"
}
echo "bench: fleet merge of $n nodes" >&2
measure merge "$bin" fleet merge "$tmp"/node*.json -o "$tmp/fleet.json"
flagged=$(sed -n 's/^mempath fleet: .* \([0-9]*\) flagged$/\1/p' "$tmp/merge.out")
planted=$(grep -c '^FLAGGED  node\(00007\|0*'"$((n / 2))"'\|0*'"$((n - 3))"'\)$' "$tmp/merge.out" || true)
echo "bench: report --format html of the fleet file" >&2
measure html "$bin" report "$tmp/fleet.json" --format html -o "$tmp/fleet.html"
size=$(($(wc -c <"$tmp/fleet.json") / 1048576))
{
	echo
	echo "## fleet of $n nodes (merge, verdicts, report)"
	echo
	echo "- machine: $(hostname), $(nproc) CPUs; $(date -u +%FT%TZ); $("$bin" --version)"
	echo "- nodes: perturbed copies of \`$src\` (2% noise per sample, 3 planted 20% slow)"
	echo "- \`fleet merge\` (read $n files, judge, write the ${size} MiB fleet file, print): ${merge_s} s, ${merge_mib} MiB peak"
	echo "- \`report --format html\` of the fleet file: ${html_s} s, ${html_mib} MiB peak"
	echo "- flagged: ${flagged:-?} nodes, of them ${planted} of the 3 planted (target: under 10 s and 1 GiB each)"
} >>"$out"
echo "bench: fleet of $n: merge ${merge_s} s ${merge_mib} MiB, html ${html_s} s ${html_mib} MiB; flagged ${flagged:-?} (${planted}/3 planted)" >&2
