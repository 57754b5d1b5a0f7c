#!/bin/sh
# tools/bench-fleet.sh MEMPATH - `make bench`: a fleet of N nodes (1,000 by
# default, BENCH_NODES) from perturbed copies of the committed quick run of
# the dev VM (every sample times 1 + 2% noise, its own per node; three nodes
# planted 20% slow), then `fleet merge` (read, judge, write the fleet file,
# print the report) and `report --format html` of that file, each timed with
# its peak memory. Target: under 10 s and under 1 GiB each on the 2-core dev
# VM (docs/fleet.md). Appends to docs/results/bench-<host>-<date>.md
# (BENCH_OUT).
# BENCH_FLEET_MPI=N instead runs the real fleet of issue 46 on this host, N
# times each way: five MPI ranks of `fleet --only cpu.first_touch --quick`
# (ranks of one host take turns), the fifth started under tests/data/thp-off.c
# (THP disabled for its process tree: a planted fault), then five ranks with
# none changed; it counts the ranks flagged and on what, with the load
# average beside each run (BENCH_FLEET_ARGS: the fleet's probe arguments).
set -eu
bin=${1:?usage: tools/bench-fleet.sh MEMPATH}
if [ "${BENCH_FLEET_MPI:-0}" -gt 0 ]; then
	exec sh "$(dirname "$0")/bench-fleet-mpi.sh" "$bin" "$BENCH_FLEET_MPI"
fi
n=${BENCH_NODES:-1000}
src=${BENCH_RUN:-docs/results/vm-quick-2026-11-30.json}
out=${BENCH_OUT:-docs/results/bench-$(hostname)-$(date +%F).md}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
load0=$(cut -d" " -f1 /proc/loadavg)
[ -x /usr/bin/time ] || { echo "bench-fleet: needs GNU time (/usr/bin/time)" >&2; exit 1; }
echo "bench: writing $n node files" >&2
# one awk for all the files: the template read and classified once (a plain
# line, the host name, a sample), then each node written with its host name
# and its own noise; nodes 7, n/2 and n-3 read 20% slow
awk -v n="$n" -v dir="$tmp" '
{
	line[NR] = $0; kind[NR] = 0
	if ($0 ~ /"hostname": "/) { kind[NR] = 1; next }
	if ($0 ~ /"(samples|warmups)": \[\]/) next
	if ($0 ~ /"(samples|warmups)": \[/) { inside = 1; next }
	if (inside && $0 ~ /^ *\]/) { inside = 0; next }
	if (inside) {
		kind[NR] = 2; v = $0; gsub(/[ ,]/, "", v); val[NR] = v + 0
		pre[NR] = substr($0, 1, match($0, /[0-9.eE+-]/) - 1)
		post[NR] = $0 ~ /,$/ ? "," : ""
	}
}
END {
	for (k = 1; k <= n; k++) {
		srand(k)
		f = sprintf("%s/node%05d.json", dir, k)
		slow = (k == 7 || k == int(n / 2) || k == n - 3) ? 0.8 : 1
		for (i = 1; i <= NR; i++) {
			if (kind[i] == 2)
				printf "%s%.6g%s\n", pre[i], val[i] * slow * (1 + 0.02 * (rand() + rand() + rand() - 1.5)), post[i] > f
			else if (kind[i] == 1)
				printf "  \"hostname\": \"node%05d\",\n", k > f
			else
				print line[i] > f
		}
		close(f)
	}
}' "$src"
measure() { # measure NAME CMD...: seconds and peak RSS (MiB) of CMD
	name=$1
	shift
	/usr/bin/time -f '%e %U %S %M' -o "$tmp/$name.time" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" || true
	read -r secs usr sys kib <<EOT
$(tail -n 1 "$tmp/$name.time")
EOT
	eval "${name}_s=$secs ${name}_cpu=$(echo "$usr $sys" | awk '{ printf "%.2f", $1 + $2 }') ${name}_mib=$((kib / 1024))"
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
	echo "- machine: $(hostname), $(nproc) CPUs, load $load0 at the start; $(date -u +%FT%TZ); $("$bin" --version)"
	echo "- nodes: perturbed copies of \`$src\` (2% noise per sample, 3 planted 20% slow)"
	echo "- \`fleet merge\` (read $n files, judge, write the ${size} MiB fleet file, print): ${merge_s} s wall (${merge_cpu} s of CPU), ${merge_mib} MiB peak"
	echo "- \`report --format html\` of the fleet file: ${html_s} s wall (${html_cpu} s of CPU), ${html_mib} MiB peak"
	echo "- flagged: ${flagged:-?} nodes, of them ${planted} of the 3 planted (target: under 10 s and 1 GiB each)"
} >>"$out"
echo "bench: fleet of $n: merge ${merge_s} s ${merge_mib} MiB, html ${html_s} s ${html_mib} MiB; flagged ${flagged:-?} (${planted}/3 planted)" >&2
