#!/bin/sh
# tools/bench-gpu.sh MEMPATH - mempath's GPU latencies beside nvbandwidth's
# latency tests on this machine, in one run, as ratios: gpu.host_latency
# against host_device_latency_sm, gpu.p2p's chases against
# device_to_device_latency_sm (both orders: nvbandwidth walks a 2 MiB chain in
# 128 B steps, which is order=stride; docs/design.md §8.12 says why random
# reads higher), and gpu.latency's device chase for reference.
#
# nvbandwidth is not shipped with mempath: NVBANDWIDTH=/path/to/nvbandwidth,
# or one on PATH. Without it mempath still runs and the table says so.
# Writes docs/results/bench-gpu-<host>-<date>.md (BENCH_OUT).
set -eu
bin=${1:?usage: tools/bench-gpu.sh MEMPATH}
host=$(hostname)
out=${BENCH_OUT:-docs/results/bench-gpu-$host-$(date +%F).md}
nvb=${NVBANDWIDTH:-$(command -v nvbandwidth || true)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

"$bin" sysinfo --json | grep -q '"devices"' || {
	echo "bench-gpu: no usable GPU here" >&2
	exit 1
}
echo "bench-gpu: gpu.host_latency, gpu.latency 2M/256M, gpu.p2p latency, nvbandwidth latency tests" >&2
"$bin" probe gpu.host_latency --quiet -o "$tmp/hl.json" >/dev/null || true
"$bin" probe gpu.latency min=2M max=256M factor=128 orders=random,stride --quiet \
	-o "$tmp/lat.json" >/dev/null || true
"$bin" probe gpu.p2p tests=latency --quiet -o "$tmp/p2p.json" >/dev/null || true
for f in hl lat p2p; do
	"$bin" report "$tmp/$f.json" --format csv >"$tmp/$f.csv" 2>/dev/null || : >"$tmp/$f.csv"
done
for t in host_device_latency_sm device_to_device_latency_sm; do
	if [ -n "$nvb" ]; then
		"$nvb" -t "$t" >"$tmp/$t.txt" 2>&1 || true
	else
		: >"$tmp/$t.txt"
	fi
done

# median of METRIC with exactly LABELS in CSV
med() {
	awk -F'"' -v m="$2" -v l="$3" '{ split($1, a, ","); split($3, b, ",") }
		a[3] == m && $2 == l { print b[5] }' "$1"
}
# nvb FILE ROW COL: the cell of nvbandwidth's matrix (row, column)
nvb_cell() {
	awk -v r="$2" -v c="$3" '
		/\(ns\)$/ { in_m = 1; hdr = 1; next }
		in_m && hdr { hdr = 0; next }
		in_m && NF == 0 { in_m = 0 }
		in_m && $1 == r { v = $(c + 2); if (v != "N/A") print v; exit }' "$1"
}
row() { # row PATH CELL MEMPATH_NS NVB_NS
	awk -v p="$1" -v c="$2" -v m="$3" -v n="$4" 'BEGIN {
		printf "| %s | %s | %s | %s | %s |\n", p, c, (m != "" ? sprintf("%.1f", m) : "-"),
			(n != "" ? sprintf("%.1f", n) : "-"), (m != "" && n != "" && n > 0 ? sprintf("%.3f", m / n) : "-") }'
}

{
	echo "# Bench: mempath GPU latencies beside nvbandwidth"
	echo
	echo "- machine: $host, $(uname -r), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
	echo "- GPUs: $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | sort | uniq -c | sed 's/^ *//' | paste -sd';' -)"
	echo "- date: $(date -u +%FT%TZ)"
	echo "- mempath: $("$bin" --version); medians of 10 samples"
	if [ -n "$nvb" ]; then
		echo "- nvbandwidth: $nvb, $(grep -m1 'nvbandwidth Version' "$tmp/host_device_latency_sm.txt" || echo 'version unknown'); its default 1M-access chase over a 2 MiB buffer, 128 B steps"
	else
		echo "- nvbandwidth: not found (NVBANDWIDTH unset and none on PATH): no reference in this run"
	fi
	echo
	echo "| path | mempath cell | mempath ns | nvbandwidth ns | mempath / nvbandwidth |"
	echo "|---|---|---:|---:|---:|"
	ref=$(nvb_cell "$tmp/host_device_latency_sm.txt" 0 0)
	for m in pinned registered managed device; do
		for o in stride random; do
			v=$(med "$tmp/hl.csv" latency "memory=$m,order=$o,size=2M")
			case $m in pinned | registered) r=$ref ;; *) r="" ;; esac
			row "GPU 0 chases $m memory" "gpu.host_latency memory=$m order=$o size=2M" "$v" "$r"
		done
	done
	for s in 2M 256M; do
		for o in stride random; do
			row "GPU 0 chases its own memory" "gpu.latency size=$s order=$o" \
				"$(med "$tmp/lat.csv" latency "size=$s,order=$o")" ""
		done
	done
	# gpu.p2p: src owns the memory, dst chases; nvbandwidth: row chases, column owns
	awk -F'"' '{ split($1, a, ",") } a[3] == "p2p_chase_latency" { print $2 }' "$tmp/p2p.csv" |
		while read -r l; do
			src=$(echo "$l" | tr , '\n' | sed -n 's/^src=//p')
			dst=$(echo "$l" | tr , '\n' | sed -n 's/^dst=//p')
			o=$(echo "$l" | tr , '\n' | sed -n 's/^order=//p')
			row "GPU $dst chases GPU $src's memory" "gpu.p2p p2p_chase_latency order=$o" \
				"$(med "$tmp/p2p.csv" p2p_chase_latency "$l")" \
				"$(nvb_cell "$tmp/device_to_device_latency_sm.txt" "$dst" "$src")"
		done
	echo
	echo "order=stride is nvbandwidth's chain (2 MiB, node i then i + 1); order=random over the same 2 MiB, or"
	echo "gpu.p2p's 256 MiB random and page-local chains, add what address order saves (docs/design.md §8.12)."
	echo
	for t in host_device_latency_sm device_to_device_latency_sm; do
		[ -s "$tmp/$t.txt" ] || continue
		echo "nvbandwidth -t $t:"
		echo
		echo '```'
		sed -n '/(ns)$/,/^SUM/p' "$tmp/$t.txt"
		echo '```'
		echo
	done
} >"$out"
echo "bench-gpu: wrote $out" >&2
