#!/bin/sh
# The co-tenant on a lent GPU machine (docs/results/cotenant-2026-12-07.md):
# gpu.sync's decode steps with a co-tenant at 0/10/25/50% under default time
# slicing and as clients of the probe's own MPS daemon (mps=1), each under a
# time limit; then what is left on the GPU. Builds build/mempath first
# (jansson/numa/sqlite3 from third_party/debs where the machine lacks them,
# as suite-time-2026-12-07/run.sh). OUT: where cotenant.tgz goes; P: the
# probe and its options, LIM: each run's time limit, s (both: as below).
set -u
out=${OUT:?}
top=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$top" || exit 1
export PATH=$PATH:/usr/local/cuda/bin NCCL_NVLS_ENABLE=0
if [ ! -f /usr/include/jansson.h ]; then
	root=/var/tmp/mempath-deps
	for d in third_party/debs/*.deb; do dpkg -x "$d" "$root"; done
	lib=$root/usr/lib/x86_64-linux-gnu
	export C_INCLUDE_PATH=$root/usr/include LIBRARY_PATH=$lib LD_LIBRARY_PATH=$lib
fi
make -j"$(nproc)" MPI=0 build/mempath >"$out/build.log" 2>&1 || { tail -20 "$out/build.log"; exit 1; }
W=$(mktemp -d)
B=./build/mempath P=${P:-"gpu.sync weight_pct=25 sched=spin,blocking --reps 30"} LIM=${LIM:-90}
{ date -u; nvidia-smi -L; nvidia-smi -q | grep -i -E "driver version|compute mode|cuda version"; } >"$W/env.txt" 2>&1
step() { n=$1 lim=$2; shift 2; s=$(date +%s); timeout -k 5 "$lim" "$@" >"$W/$n.txt" 2>&1; echo "$n rc=$? $(($(date +%s) - s)) s"; }
step ts "$LIM" $B probe $P -o "$W/ts.json"
step mps "$LIM" $B probe $P mps=1 -o "$W/mps.json"
{ date -u; nvidia-smi --query-compute-apps=pid,name --format=csv
  echo "--- mps or co-tenant processes left:"; ps -eo pid,args | grep -E "mps-control|mps-server|__cotenant" | grep -v grep; } >"$W/after.txt" 2>&1
for f in ts mps; do echo "== $f"; grep -E "step_time|duty" "$W/$f.txt" | head -20; done
cat "$W/after.txt"
tar czf "$out/cotenant.tgz" -C "$W" .
