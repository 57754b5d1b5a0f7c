#!/bin/sh
# docs/results/stream-h200-2026-12-01/run.sh - cpu.stream at its default size
# beside STREAM 5.10 at 1.6 GB arrays on the one-H200 machine's 16-core Xeon,
# in PAIRS interleaved pairs, the order alternating (STREAM first in odd
# pairs), from the repository root with OUT the results folder and STREAM_SRC
# McCalpin's stream.c:
#   OUT=/tmp/out STREAM_SRC=third_party/refs/stream.c sh docs/results/stream-h200-2026-12-01/run.sh
# STREAM: gcc -O2 -fopenmp -mcmodel=large -DSTREAM_ARRAY_SIZE=200000000
# -DNTIMES=10, OMP_NUM_THREADS=16 OMP_PROC_BIND=true, its best rate (its
# Copy compiles to libc memcpy). mempath: cpu.stream threads=16
# kernels=copy,triad,memcpy pages=4k stores=temporal --reps 10 at the default
# size, bandwidth_best (the best sample, STREAM's rule). Writes pairs.tsv.
set -u
R=${OUT:?OUT: the results folder}
mkdir -p "$R"
if [ -d third_party/debs ]; then
	mkdir -p /opt/dd
	for f in third_party/debs/*.deb; do dpkg -x "$f" /opt/dd; done
	L=/opt/dd/usr/lib/x86_64-linux-gnu
	export C_INCLUDE_PATH=/opt/dd/usr/include LIBRARY_PATH=$L LD_LIBRARY_PATH=$L
fi
{ date -u; lscpu | grep -E 'Model name|^CPU\(s\)|L3'; uname -r; } >"$R/machine.txt" 2>&1
make -j16 MPI=0 GPU=0 >"$R/build.log" 2>&1 || { tail -20 "$R/build.log"; exit 1; }
gcc -O2 -fopenmp -mcmodel=large -DSTREAM_ARRAY_SIZE=200000000 -DNTIMES=10 \
	"${STREAM_SRC:?STREAM_SRC: stream.c}" -o /tmp/stream >>"$R/build.log" 2>&1 || exit 1
M=build/mempath
stream() { OMP_NUM_THREADS=16 OMP_PROC_BIND=true /tmp/stream >"$R/stream-$1.txt" 2>&1; }
ours() {
	$M probe cpu.stream threads=16 kernels=copy,triad,memcpy pages=4k stores=temporal --reps 10 \
		--warmups 1 --quiet -o "$R/cs-$1.json" >/dev/null 2>&1
	$M report "$R/cs-$1.json" --format csv >"$R/cs-$1.csv"
}
printf 'pair\tstream_copy\tstream_triad\tours_copy\tours_memcpy\tours_triad\tarray_bytes\n' >"$R/pairs.tsv"
p=1
while [ $p -le "${PAIRS:-14}" ]; do
	if [ $((p % 2)) -eq 1 ]; then stream $p && ours $p; else ours $p && stream $p; fi
	sc=$(awk '/^Copy:/ { print $2 / 1000 }' "$R/stream-$p.txt")
	st=$(awk '/^Triad:/ { print $2 / 1000 }' "$R/stream-$p.txt")
	best() { awk -F'"' -v k="$1" '$1 ~ /,bandwidth_best,$/ && index($2, "kernel=" k ",") == 1 { split($3, b, ","); print b[5] }' "$R/cs-$p.csv"; }
	ab=$(grep -o '"array_bytes": "[^"]*"' "$R/cs-$p.json" | head -1 | cut -d'"' -f4)
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' $p "$sc" "$st" "$(best copy)" "$(best memcpy)" "$(best triad)" "$ab" >>"$R/pairs.tsv"
	p=$((p + 1))
done
cat "$R/pairs.tsv"
python3 - "$R/pairs.tsv" <<'PY'
import math, statistics, sys
rows = [l.split('\t') for l in open(sys.argv[1]).read().split('\n')[1:] if l]
def summary(name, i, j):
    r = [float(x[j]) / float(x[i]) for x in rows if x[i] and x[j]]
    lr = [math.log(v) for v in r]
    m, s = statistics.mean(lr), statistics.stdev(lr) / math.sqrt(len(lr))
    print('%-28s n=%d median %.3f  geomean %.3f [%.3f, %.3f] (95%% t-ish, 2.16 se)' % (
        name, len(r), statistics.median(r), math.exp(m), math.exp(m - 2.16 * s), math.exp(m + 2.16 * s)))
summary('triad / STREAM Triad', 2, 5)
summary('memcpy / STREAM Copy', 1, 4)
summary('copy (temporal) / STREAM Copy', 1, 3)
PY
tar czf "$R.tgz" -C "$(dirname "$R")" "$(basename "$R")" && rm -rf "$R"
