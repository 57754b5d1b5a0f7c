# One call on the lent H200 (docs/results/*-h200-2026-12-02.md): build there
# (Debian 12's libjansson, libnuma, libsqlite3 unpacked under /opt/deps),
# then, each step under a time limit of its own:
#   gpu.sync's decode steps with a co-tenant, time slicing and under the
#   probe's own MPS daemon (mps=1, mps=1 mps_pct=30); the co-tenant study as
#   ab (B's setup starts a co-tenant at 10%, A's ends it); the CPU latency
#   request as ab (--b-env MEMPATH_CPU_DMA_LATENCY=0); doctor; with $1 = full
#   also the 1 GiB chase at every page size and the cycler's 25% at 4k, 64k,
#   1m; last what is left on the GPU. B's setup ends a co-tenant left by the
#   B before it (ABBA order) before starting its own (the first call's study
#   did not, so its A legs after BB ran beside a co-tenant: not quoted). Everything goes into one tarball.
set -u
W=/tmp/res; mkdir -p $W
D=/opt/deps L=/opt/deps/usr/lib/x86_64-linux-gnu
mkdir -p $D && for f in .dev/debs/*.deb; do dpkg -x "$f" $D; done
export CPATH=$D/usr/include LIBRARY_PATH=$L LD_LIBRARY_PATH=$L NCCL_NVLS_ENABLE=0
pack() { tar -C $W -czf "$OUT/res.tgz" . ; }
trap 'pkill_ct; pack' EXIT
pkill_ct() { [ -f /tmp/ct.pid ] && kill "$(cat /tmp/ct.pid)" 2>/dev/null; rm -f /tmp/ct.pid; }
t0=$(date +%s)
make -j16 MPI=0 >$W/build.txt 2>&1 || { tail -30 $W/build.txt; exit 1; }
echo "build $(( $(date +%s) - t0 )) s"
B=$(pwd)/build/mempath
export MEMPATH_KNOB_JOURNAL_DIR=/tmp/knobs
{ date -u; hostname; nvidia-smi -L; nvidia-smi; nvidia-smi -q | grep -i -E "driver version|compute mode|cuda version|serial|uuid"
  uname -r; mkdir -p /tmp/sfs; mount -t securityfs none /tmp/sfs 2>&1; echo "lockdown: $(cat /tmp/sfs/lockdown 2>&1)"; umount /tmp/sfs
  echo "debugfs mounted: $(grep -c debugfs /proc/mounts)"; ls /sys/devices/system/cpu/cpu0/cpuidle 2>&1; ls -l /dev/cpu_dma_latency
  grep -H . /sys/kernel/mm/transparent_hugepage/hugepages-*/enabled /sys/kernel/mm/transparent_hugepage/enabled /sys/kernel/mm/hugepages/*/nr_hugepages; } >$W/env.txt 2>&1
P="gpu.sync weight_pct=25 sched=spin,blocking --reps 30"
step() { n=$1 lim=$2; shift 2; s=$(date +%s); timeout -k 5 $lim "$@" >$W/$n.txt 2>&1; echo "$n rc=$? $(( $(date +%s) - s )) s"; }
step ts 60 $B probe $P -o $W/ts.json
step mps 60 $B probe $P mps=1 -o $W/mps.json
[ "${1:-}" = full ] && step mps30 60 $B probe $P mps=1 mps_pct=30 -o $W/mps30.json
ps -eo pid,args | grep -E "mps-control|mps-server|__cotenant" | grep -v grep >$W/left-after-mps.txt
CT_A="f=/tmp/ct.pid; if [ -f \$f ]; then p=\$(cat \$f); tail -n 1 /tmp/ct.out >>$W/ct-lines.txt; kill \$p; while kill -0 \$p 2>/dev/null; do sleep 0.1; done; rm -f \$f; fi; true"
CT_B="$CT_A; rm -f /tmp/ct.out; setsid $B __cotenant 10 10 >/tmp/ct.out 2>/tmp/ct.err </dev/null & echo \$! >/tmp/ct.pid; i=0; while [ ! -s /tmp/ct.out ] && [ \$i -lt 300 ]; do sleep 0.1; i=\$((i+1)); done; [ -s /tmp/ct.out ]"
step ab-cotenant 110 $B ab --a "$CT_A" --b "$CT_B" --max-rounds 8 --budget 90 -o $W/ab-cotenant -- probe gpu.sync weight_pct=25 sched=blocking duties=0 --reps 24
pkill_ct
[ "${1:-}" = full ] && step ab-cpulat 85 $B ab --a true --b true --b-env MEMPATH_CPU_DMA_LATENCY=0 --expect-diff cpu_dma_latency_us --max-rounds 6 --budget 70 -o $W/ab-cpulat -- probe gpu.sync weight_pct=25 sched=blocking duties=0 --reps 24
step doctor 30 env MEMPATH_CPU_DMA_LATENCY=0 $B doctor
if [ "${1:-}" = full ]; then
	step chase 140 $B probe --reps 3 --warmups 1 cpu.latency pages=all sizes=1G order=random -o $W/chase.json
	step cycler 50 $B probe cpu.cycler split=0,25 to=4k,64k,1m size=1G threads=1 --reps 5 -o $W/cycler.json
fi
grep -H . /sys/kernel/mm/transparent_hugepage/hugepages-*/enabled /sys/kernel/mm/transparent_hugepage/enabled /sys/kernel/mm/hugepages/*/nr_hugepages >$W/knobs-after.txt 2>&1
{ date -u; nvidia-smi; echo "--- compute apps"; nvidia-smi --query-compute-apps=pid,name --format=csv
  echo "--- mps or co-tenant processes left:"; ps -eo pid,args | grep -E "mps-control|mps-server|__cotenant" | grep -v grep; } >$W/after.txt 2>&1
for f in ts mps mps30; do echo "== $f"; grep -E "step_time|sync_latency" $W/$f.txt | head -12; done
tail -25 $W/ab-cotenant.txt; tail -12 $W/ab-cpulat.txt; tail -6 $W/chase.txt 2>/dev/null; tail -8 $W/after.txt
