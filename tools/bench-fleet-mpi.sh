#!/bin/sh
# tools/bench-fleet-mpi.sh MEMPATH N - tools/bench-fleet.sh's real fleet
# (BENCH_FLEET_MPI=N): N runs of five MPI ranks on this host with the fifth
# rank's THP disabled (prctl, tests/data/thp-off.c), then N runs with none
# changed. Per run: the ranks flagged by their peers and those flagged by a
# reference check (a FAIL against data/'s values for this machine), each
# with its metrics, the load average before and after. BENCH_KEEP: a
# directory to keep each run's files in. Appends to BENCH_OUT (default
# docs/results/bench-<host>-<date>.md) and prints the same.
set -u
bin=${1:?usage: tools/bench-fleet-mpi.sh MEMPATH N}
n=${2:?usage: tools/bench-fleet-mpi.sh MEMPATH N}
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
args=${BENCH_FLEET_ARGS:-fleet --only cpu.first_touch --quick}
out=${BENCH_OUT:-docs/results/bench-$(hostname)-$(date +%F).md}
top=$(cd "$(dirname "$0")/.." && pwd)
command -v mpirun >/dev/null 2>&1 || { echo "bench-fleet-mpi: skipped: no mpirun"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
cc -O2 -o "$tmp/thp-off" "$top/tests/data/thp-off.c" || exit 1
host=$(hostname)
one() { # one WAY I: WAY planted or none
	way=$1 i=$2 d=$tmp/$1-$2
	mkdir -p "$d"
	l0=$(cut -d' ' -f1-3 /proc/loadavg)
	t0=$(date +%s)
	if [ "$way" = planted ]; then
		# shellcheck disable=SC2086
		(cd "$d" && mpirun --allow-run-as-root --oversubscribe -np 4 "$bin" $args -o fleet.json : \
			-np 1 "$tmp/thp-off" "$bin" $args -o fleet.json </dev/null >out.txt 2>err.txt)
	else
		# shellcheck disable=SC2086
		(cd "$d" && mpirun --allow-run-as-root --oversubscribe -np 5 "$bin" $args -o fleet.json </dev/null \
			>out.txt 2>err.txt)
	fi
	rc=$?
	[ $rc -le 1 ] || echo "bench-fleet-mpi: $way $i: mpirun exit $rc: $(tail -3 "$d/err.txt")" >&2
	"$bin" report "$d/fleet.json" --format csv >"$d/fleet.csv" 2>/dev/null
	# the ranks flagged by their peers (the outlier rule), and those
	# flagged only by a reference check (a FAIL against the machine's
	# reference values), each with what: "rank:probe metric labels"
	python3 -c 'import csv, sys
peer, ref = {}, {}
for r in csv.reader(open(sys.argv[1])):
    if len(r) < 14 or r[2] != "metric" or r[10] != "yes":
        continue
    rank = r[0].split(":")[-1]
    what = "%s:%s %s %s" % (rank, r[3], r[4], r[5])
    (ref if r[13].startswith("FAIL against") else peer).setdefault(rank, []).append(what)
def say(d):
    return " ".join(sorted(d)) or "none", "; ".join(w for k in sorted(d) for w in d[k]) or "-"
p, r = say(peer), say(ref)
print("%s | %s | %s | %s" % (p[0], p[1], r[0], r[1]))' "$d/fleet.csv" >"$d/flags.txt" 2>/dev/null || echo "? | ? | ? | ?" >"$d/flags.txt"
	echo "| $way | $i | $(date -u -d @"$t0" +%H:%MZ) | $(($(date +%s) - t0)) | $l0 / $(cut -d' ' -f1-3 /proc/loadavg) | $rc | $(cat "$d/flags.txt") |"
	[ -z "${BENCH_KEEP:-}" ] || { mkdir -p "$BENCH_KEEP" && cp -r "$d" "$BENCH_KEEP/"; }
}
{
	echo
	echo "## real fleet: five ranks on one host, one rank's THP off ($n runs each way)"
	echo
	echo "- machine: $host, $(nproc) CPUs, THP $(cat /sys/kernel/mm/transparent_hugepage/enabled); $("$bin" --version)"
	echo "- command: \`mpirun -np 4 mempath $args -o fleet.json : -np 1 thp-off mempath $args -o fleet.json\` (planted: rank 4), and \`mpirun -np 5 ...\` (none)"
	echo
	echo "| way | run | start | s | load avg (1, 5, 15 min) before / after | exit | ranks flagged by peers | peer flags (rank:probe metric labels) | ranks flagged by a reference check only | reference FAILs |"
	echo "|---|---:|---|---:|---|---:|---|---|---|---|"
} | tee -a "$out"
for i in $(seq 1 "$n"); do
	one planted "$i" | tee -a "$out"
	one none "$i" | tee -a "$out"
done
