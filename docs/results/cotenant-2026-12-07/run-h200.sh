#!/bin/sh
# Not run yet: written 2026-12-07 for the H200 no session was lent that day.
# The co-tenant of 2026-12-07 (it makes up stretched periods) on the H200:
# run.sh beside this file first (the build, gpu.sync's decode steps with a
# co-tenant at 0/10/25/50% under time slicing and as clients of the probe's
# own MPS daemon, what is left on the GPU: cotenant.tgz), then gpu.sync
# mps=1 SIGKILLed while its co-tenant runs and what is left after, and the
# seed's finding as ab (B's setup starts `mempath __cotenant 10 10`, A's ends
# it, --expect-diff gpu_others); last what is left on the GPU again. Run
# from the repository root; OUT: where cotenant.tgz and res.tgz go.
set -u
out=${OUT:?}
here=$(cd "$(dirname "$0")" && pwd)
sh "$here/run.sh" || exit 1
cd "$here/../../.." || exit 1
# run.sh unpacked jansson/numa/sqlite3 here where the machine lacks them
[ -f /usr/include/jansson.h ] || export LD_LIBRARY_PATH=/var/tmp/mempath-deps/usr/lib/x86_64-linux-gnu
export NCCL_NVLS_ENABLE=0 MEMPATH_KNOB_JOURNAL_DIR=/tmp/knobs
W=$(mktemp -d)
pkill_ct() { [ -f /tmp/ct.pid ] && kill "$(cat /tmp/ct.pid)" 2>/dev/null; rm -f /tmp/ct.pid; }
trap 'pkill_ct; tar czf "$out/res.tgz" -C "$W" .' EXIT
B=$(pwd)/build/mempath
step() { n=$1 lim=$2; shift 2; s=$(date +%s); timeout -k 5 "$lim" "$@" >"$W/$n.txt" 2>&1; echo "$n rc=$? $(($(date +%s) - s)) s"; }
ours() { ps -eo pid,args | grep -E "mps-control|mps-server|__cotenant" | grep -v grep; }
setsid $B probe gpu.sync weight_pct=25 sched=spin duties=50 mps=1 --reps 30 -o "$W/killed.json" >"$W/killed.txt" 2>&1 &
K=$! i=0
while ! ps -eo args | grep -v grep | grep -q __cotenant; do i=$((i + 1)); [ $i -lt 600 ] || break; sleep 0.1; done
sleep 2
{ echo "--- before SIGKILL ($(date -u +%T))"; ours; nvidia-smi --query-compute-apps=pid,name --format=csv; } >"$W/sigkill.txt" 2>&1
kill -9 $K; wait $K 2>/dev/null
for s in 1 2 5 10 20; do sleep $s; { echo "--- after SIGKILL +${s}s step ($(date -u +%T))"; ours; nvidia-smi --query-compute-apps=pid,name --format=csv; ls -d /tmp/mempath-mps-* 2>&1; } >>"$W/sigkill.txt" 2>&1; done
CT_A="f=/tmp/ct.pid; if [ -f \$f ]; then p=\$(cat \$f); tail -n 1 /tmp/ct.out >>$W/ct-lines.txt; kill \$p; while kill -0 \$p 2>/dev/null; do sleep 0.1; done; rm -f \$f; fi; true"
CT_B="$CT_A; rm -f /tmp/ct.out; setsid $B __cotenant 10 10 >/tmp/ct.out 2>/tmp/ct.err </dev/null & echo \$! >/tmp/ct.pid; i=0; while [ ! -s /tmp/ct.out ] && [ \$i -lt 300 ]; do sleep 0.1; i=\$((i+1)); done; [ -s /tmp/ct.out ]"
step ab-cotenant 130 $B ab --a "$CT_A" --b "$CT_B" --expect-diff gpu_others --max-rounds 8 --budget 100 -o "$W/ab-cotenant" -- probe gpu.sync weight_pct=25 sched=blocking duties=0 --reps 24
pkill_ct
{ date -u; nvidia-smi --query-compute-apps=pid,name --format=csv
  echo "--- mps or co-tenant processes left:"; ours; ls -d /tmp/mempath-mps-* 2>&1; } >"$W/after.txt" 2>&1
cat "$W/sigkill.txt"; tail -25 "$W/ab-cotenant.txt"; cat "$W/after.txt"
