#!/bin/sh
# tools/bench-gpu.sh MEMPATH - `make bench-gpu`: mempath's GPU figures beside
# the reference tools on this machine, in one run, as ratios, each bandwidth
# row with its share of the physical limit (docs/design.md §5.17):
#   - gpu-benches (te42kyfo/gpu-benches, GPU_BENCHES=its source folder; built
#     here with nvcc): gpu-l2-cache (HBM read at a 0.5 GB data set, L2 read at
#     8/16/24 MiB), gpu-stream (its init kernel: a store stream) and
#     gpu-latency (L1/L2/HBM; its size loop stepped x GB_LAT_STEP, 1.5, not
#     x1.04, so the sweep reaches HBM in about a minute; kernel and timing
#     as shipped);
#   - nvbandwidth (NVBANDWIDTH=its binary, or one on PATH): pinned copies by
#     the copy engines and by the SMs, the device-local copy, and the latency
#     tests host_device_latency_sm and device_to_device_latency_sm.
# Without a reference its rows say so and mempath still runs.
# Writes docs/results/bench-gpu-<host>-<date>.md (BENCH_OUT); beside it
# -tools.json, the tools' outputs read by `mempath import` (results of their
# own kind), and -check.txt, `mempath check --beside` of the kind's paths
# measured right after them: each tool's figure beside mempath's, a ratio a
# line (docs/design.md §5.20).
set -eu
bin=${1:?usage: tools/bench-gpu.sh MEMPATH}
host=$(hostname)
out=${BENCH_OUT:-docs/results/bench-gpu-$host-$(date +%F).md}
nvb=${NVBANDWIDTH:-$(command -v nvbandwidth || true)}
gb=${GPU_BENCHES:-}
step=${GB_LAT_STEP:-1.5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

"$bin" sysinfo --json | grep -q '"devices"' || {
	echo "bench-gpu: no usable GPU here" >&2
	exit 1
}
say() { echo "bench-gpu: $*" >&2; }

# ---- mempath -----------------------------------------------------------
mp() { # mp NAME PROBE ARGS...: results in $tmp/NAME.{json,csv,txt}
	n=$1
	shift
	say "mempath $*"
	"$bin" probe "$@" --quiet -o "$tmp/$n.json" >/dev/null 2>"$tmp/$n.err" || true
	"$bin" report "$tmp/$n.json" --format csv >"$tmp/$n.csv" 2>/dev/null || : >"$tmp/$n.csv"
	"$bin" report "$tmp/$n.json" >"$tmp/$n.txt" 2>/dev/null || : >"$tmp/$n.txt"
}
mp stream gpu.stream
mp stream1g gpu.stream size=1G kernels=read,write
mp l2 gpu.l2
mp lat gpu.latency orders=random
mp lat64 gpu.latency orders=random threads=64
mp copy gpu.copy sizes=512M mems=pinned dirs=h2d,d2h
mp hl gpu.host_latency
mp p2p gpu.p2p tests=latency

# ---- gpu-benches ---------------------------------------------------------
if [ -n "$gb" ] && [ -d "$gb/gpu-l2-cache" ]; then
	cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n 1 | tr -d .)
	cp -r "$gb" "$tmp/gb"
	sed -i "s/LEN = LEN \* 1\.04 + 32/LEN = LEN * $step + 32/" "$tmp/gb/gpu-latency/main.cu"
	for t in gpu-l2-cache gpu-stream gpu-latency; do
		say "gpu-benches $t (build, run)"
		(cd "$tmp/gb/$t" && nvcc -std=c++17 -O3 -arch="sm_${cc:-90}" \
			--compiler-options=-O2,-fopenmp -Xcompiler -rdynamic \
			-I"${CUDA_HOME:-/usr/local/cuda}/extras/CUPTI/include" -o bin main.cu \
			-L"${CUDA_HOME:-/usr/local/cuda}/lib64" \
			-L"${CUDA_HOME:-/usr/local/cuda}/extras/CUPTI/lib64" -lcupti -lcuda -lnvidia-ml \
			-lnvperf_host -lnvperf_target >build.log 2>&1 &&
			timeout 300 ./bin >"$tmp/gb-$t.txt" 2>&1) || say "gpu-benches $t failed"
	done
else
	say "no GPU_BENCHES (a te42kyfo/gpu-benches source folder): no gpu-benches rows"
fi
for t in gpu-l2-cache gpu-stream gpu-latency; do [ -f "$tmp/gb-$t.txt" ] || : >"$tmp/gb-$t.txt"; done

# ---- nvbandwidth ---------------------------------------------------------
nvb_tests="host_to_device_memcpy_ce device_to_host_memcpy_ce host_to_device_memcpy_sm
device_to_host_memcpy_sm device_local_copy host_device_latency_sm device_to_device_latency_sm"
for t in $nvb_tests; do
	if [ -n "$nvb" ]; then
		say "nvbandwidth -t $t"
		"$nvb" -t "$t" >"$tmp/nvb-$t.txt" 2>&1 || true
	else
		: >"$tmp/nvb-$t.txt"
	fi
done

# ---- readers -------------------------------------------------------------
# med NAME METRIC LABELS: mempath's median of METRIC with exactly LABELS
med() {
	awk -v m="$2" -v l="$3" '
		function field(s,   out, q, c, i) { # splits s into f[1..nf], quotes honoured
			nf = 0; out = ""; q = 0
			for (i = 1; i <= length(s); i++) { c = substr(s, i, 1)
				if (c == "\"") q = !q
				else if (c == "," && !q) { f[++nf] = out; out = "" }
				else out = out c }
			f[++nf] = out }
		{ field($0) } f[3] == m && f[4] == l { print f[8]; exit }' "$tmp/$1.csv"
}
# share NAME METRIC LABELS: "96.7%" from the report's limit line, or the reason
share() {
	awk -v k="limit: $2 $3: " 'index($0, k) { s = substr($0, index($0, k) + length(k))
		split(s, a, " "); print a[1]; found = 1; exit }
		END { if (!found) print "-" }' "$tmp/$1.txt"
}
# share_unknown NAME METRIC: the reason a metric's limit is unknown
share_unknown() {
	awk -v k="limit: $2: limit" 'index($0, k) { sub(/.*unknown: /, ""); print; exit }' "$tmp/$1.txt"
}
# gb_l2 KB: gpu-l2-cache's GB/s at the data set nearest KB kB
gb_l2() {
	awk -v want="$1" '/GB\/s/ && $2 == "kB" && $4 == "kB" {
		d = $3 - want; if (d < 0) d = -d
		if (best == "" || d < bd) { bd = d; best = $7; at = $3 } }
		END { if (best != "") printf "%s %s\n", best, at }' "$tmp/gb-gpu-l2-cache.txt"
}
# gb_store: gpu-stream's init (store) kernel, best over its block sizes
gb_store() {
	awk '/GB\/s:/ { for (i = 1; i <= NF; i++) if ($i == "GB/s:") v = $(i + 1)
		if (v + 0 > best) best = v + 0 } END { if (best) print best }' "$tmp/gb-gpu-stream.txt"
}
# gb_lat KB: gpu-latency's ns per load at the data set nearest KB kB
gb_lat() {
	awk -v want="$1" 'NF == 5 && $1 + 0 > 0 && $4 + 0 > 0 {
		d = $3 - want; if (d < 0) d = -d
		if (best == "" || d < bd) { bd = d; best = $4 * 1e6 / $1; at = $3 } }
		END { if (best != "") printf "%.1f %s\n", best, at }' "$tmp/gb-gpu-latency.txt"
}
# nvb_sum TEST: nvbandwidth's SUM line
nvb_sum() {
	awk -v t="$1" '$1 == "SUM" && $2 == t { print $3; exit }' "$tmp/nvb-$1.txt"
}
# nvb_cell TEST ROW COL: a cell of nvbandwidth's latency matrix
nvb_cell() {
	awk -v r="$2" -v c="$3" '
		/\(ns\)$/ { in_m = 1; hdr = 1; next }
		in_m && hdr { hdr = 0; next }
		in_m && NF == 0 { in_m = 0 }
		in_m && $1 == r { v = $(c + 2); if (v != "N/A") print v; exit }' "$tmp/nvb-$1.txt"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a != "" && b != "" && b > 0) printf "%.3f", a / b; else printf "-" }'; }
num() { awk -v a="$1" -v d="$2" 'BEGIN { if (a != "") printf "%.*f", d, a; else printf "-" }'; }
bw_row() { # bw_row PATH CELL MEMPATH REF_NAME REF SHARE
	echo "| $1 | $2 | $(num "$3" 1) | $4 | $(num "$5" 1) | $(ratio "$3" "$5") | $6 |"
}
lat_row() { # lat_row PATH CELL MEMPATH REF_NAME REF
	echo "| $1 | $2 | $(num "$3" 1) | $4 | $(num "$5" 1) | $(ratio "$3" "$5") |"
}

{
	echo "# Bench: mempath's GPU figures beside gpu-benches and nvbandwidth"
	echo
	echo "- machine: $host, $(uname -r), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
	echo "- GPUs: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | sort | uniq -c | sed 's/^ *//' | paste -sd';' -)"
	echo "- date: $(date -u +%FT%TZ)"
	echo "- mempath: $("$bin" --version); medians of 10 samples"
	if [ -n "$gb" ]; then
		echo "- gpu-benches: $gb ($(git -C "$gb" rev-parse --short HEAD 2>/dev/null || echo 'no git')), built with nvcc -O3 for this GPU; gpu-latency's size loop x$step"
	else
		echo "- gpu-benches: not given (GPU_BENCHES unset): no gpu-benches rows"
	fi
	if [ -n "$nvb" ]; then
		echo "- nvbandwidth: $nvb, $(grep -m1 'nvbandwidth Version' "$tmp/nvb-device_local_copy.txt" || echo 'version unknown')"
	else
		echo "- nvbandwidth: not found (NVBANDWIDTH unset and none on PATH): no nvbandwidth rows"
	fi
	echo
	echo "## Bandwidth (GB/s)"
	echo
	echo "| path | mempath cell | mempath | reference | ref | mempath / ref | share of limit |"
	echo "|---|---|---:|---|---:|---:|---|"
	set -- $(gb_l2 524288)
	v=$(med stream bandwidth "kernel=read,access=default")
	bw_row "HBM read" "gpu.stream read (default size)" "$v" "gpu-l2-cache, ${2:-?} kB set" "${1:-}" \
		"$(share stream bandwidth kernel=read,access=default)"
	v1=$(med stream1g bandwidth "kernel=read,access=default")
	bw_row "HBM read, 1 GiB buffers" "gpu.stream size=1G read" "$v1" "gpu.stream read, default size" "$v" \
		"$(share stream1g bandwidth kernel=read,access=default)"
	w=$(med stream bandwidth "kernel=write,access=default")
	bw_row "HBM write" "gpu.stream write (default size)" "$w" "gpu-stream init (store), best block size" \
		"$(gb_store)" "$(share stream bandwidth kernel=write,access=default)"
	w1=$(med stream1g bandwidth "kernel=write,access=default")
	bw_row "HBM write, 1 GiB buffers" "gpu.stream size=1G write" "$w1" "gpu.stream write, default size" "$w" \
		"$(share stream1g bandwidth kernel=write,access=default)"
	bw_row "device-local copy (bytes once)" "gpu.stream memcpy_d2d bandwidth_once" \
		"$(med stream bandwidth_once kernel=memcpy_d2d,access=default)" "nvbandwidth device_local_copy" \
		"$(nvb_sum device_local_copy)" "$(share stream bandwidth kernel=memcpy_d2d,access=default) (read + write)"
	for s in 8M:8192 16M:16384 24M:24576; do
		set -- $(gb_l2 "${s#*:}")
		bw_row "L2 read, ${s%:*} set" "gpu.l2 size=${s%:*}" "$(med l2 l2_read_bw "size=${s%:*}")" \
			"gpu-l2-cache, ${2:-?} kB set" "${1:-}" "unknown: $(share_unknown l2 l2_read_bw)"
	done
	for e in ce:copy_bw sm:sm_copy_bw; do
		for d in h2d:host_to_device d2h:device_to_host; do
			l="mem=pinned,dir=${d%:*},size=512M"
			bw_row "pinned ${d%:*}, ${e%:*}" "gpu.copy ${e#*:} $l" "$(med copy "${e#*:}" "$l")" \
				"nvbandwidth ${d#*:}_memcpy_${e%:*}" "$(nvb_sum "${d#*:}_memcpy_${e%:*}")" \
				"$(share copy "${e#*:}" "$l")"
		done
	done
	echo
	echo "## Latency (ns per dependent load)"
	echo
	echo "| path | mempath cell | mempath | reference | ref | mempath / ref |"
	echo "|---|---|---:|---|---:|---:|"
	for s in 16K:16 32K:32 64K:64 1M:1024 4M:4096 16M:16384 256M:262144 1G:1048576; do
		set -- $(gb_lat "${s#*:}")
		for n in lat:1 lat64:64; do
			lb="size=${s%:*},order=random"
			[ "${n#*:}" = 1 ] || lb="$lb,threads=64"
			lat_row "chase, ${s%:*}" "gpu.latency threads=${n#*:} size=${s%:*}" \
				"$(med "${n%:*}" latency "$lb")" "gpu-latency (64 threads), ${2:-?} kB" "${1:-}"
		done
	done
	ref=$(nvb_cell host_device_latency_sm 0 0)
	for m in pinned registered; do
		lat_row "GPU 0 chases $m host memory" "gpu.host_latency memory=$m order=stride size=2M" \
			"$(med hl latency "memory=$m,order=stride,size=2M")" "nvbandwidth host_device_latency_sm" "$ref"
	done
	awk -F'"' '/p2p_chase_latency/ { print $2 }' "$tmp/p2p.csv" | while read -r l; do
		src=$(echo "$l" | tr , '\n' | sed -n 's/^src=//p')
		dst=$(echo "$l" | tr , '\n' | sed -n 's/^dst=//p')
		lat_row "GPU $dst chases GPU $src's memory" "gpu.p2p p2p_chase_latency $l" \
			"$(med p2p p2p_chase_latency "$l")" "nvbandwidth device_to_device_latency_sm" \
			"$(nvb_cell device_to_device_latency_sm "$dst" "$src")"
	done
	echo
	echo "Ratios above 1 are better for bandwidth, below 1 for latency. gpu-latency runs 64 threads of one"
	echo "block over one chain; gpu.latency threads=1 is one thread's latency alone, threads=64 the same"
	echo "setup as gpu-latency. gpu.host_latency order=stride over 2 MiB is nvbandwidth's chain"
	echo "(docs/design.md §8.12). gpu.l2 reads with ld.global.cg (L2 only); gpu-l2-cache with plain"
	echo "loads, so at small sets it also hits in L1 (docs/design.md §8.18)."
	echo
	echo "mempath's runs (status and time):"
	echo
	echo '```'
	for f in stream stream1g l2 lat lat64 copy hl p2p; do
		grep -h '^== ' "$tmp/$f.txt" || echo "== $f: no results ($(tail -n 1 "$tmp/$f.err"))"
	done
	echo '```'
	true
} >"$out"
say "wrote $out"

# ---- the tools' figures as results, and check beside them -----------------
set --
cat "$tmp"/nvb-*.txt >"$tmp/nvbandwidth.txt" # one probe ref.nvbandwidth of every test
for f in "$tmp"/gb-*.txt "$tmp/nvbandwidth.txt"; do [ -s "$f" ] && set -- "$@" "$f"; done
if [ $# -gt 0 ] && "$bin" import "$@" -o "${out%.md}-tools.json" 2>"$tmp/import.err"; then
	say "wrote ${out%.md}-tools.json"
	"$bin" check --quiet --beside "${out%.md}-tools.json" >"${out%.md}-check.txt" 2>&1 || true
	say "wrote ${out%.md}-check.txt"
else
	say "no tool's output to import: $(cat "$tmp/import.err" 2>/dev/null)"
fi
