# The third H200 call: doctor --measure (the mTHP price among the others),
# the full suite's page-size sweep of first touch with its HTML page, and
# gpu.sync mps=1 killed with SIGKILL while its co-tenant runs: what is left
# of the MPS daemon, its server and the co-tenant after.
set -u
W=/tmp/res; mkdir -p $W
D=/opt/deps L=/opt/deps/usr/lib/x86_64-linux-gnu
mkdir -p $D && for f in .dev/debs/*.deb; do dpkg -x "$f" $D; done
export CPATH=$D/usr/include LIBRARY_PATH=$L LD_LIBRARY_PATH=$L NCCL_NVLS_ENABLE=0
trap 'tar -C $W -czf "$OUT/res.tgz" .' EXIT
make -j16 MPI=0 >$W/build.txt 2>&1 || { tail -30 $W/build.txt; exit 1; }
B=$(pwd)/build/mempath
export MEMPATH_KNOB_JOURNAL_DIR=/tmp/knobs
{ date -u; nvidia-smi -L; grep -H . /sys/kernel/mm/transparent_hugepage/hugepages-*/enabled /sys/kernel/mm/transparent_hugepage/enabled /sys/kernel/mm/hugepages/*/nr_hugepages; } >$W/env.txt 2>&1
timeout 120 $B doctor --measure >$W/doctor-measure.txt 2>&1; echo "doctor rc=$?"
timeout 200 $B run --suite full --only cpu.first_touch --reps 5 --warmups 1 -o $W/full-ft.json >$W/full-ft.txt 2>&1; echo "full rc=$?"
$B report $W/full-ft.json --format html >$W/full-ft.html 2>&1
grep -H . /sys/kernel/mm/transparent_hugepage/hugepages-*/enabled /sys/kernel/mm/transparent_hugepage/enabled /sys/kernel/mm/hugepages/*/nr_hugepages >$W/knobs-after.txt 2>&1
ours() { ps -eo pid,args | grep -E "mps-control|mps-server|__cotenant" | grep -v grep; }
setsid $B probe gpu.sync weight_pct=25 sched=spin duties=50 mps=1 --reps 30 -o $W/killed.json >$W/killed.txt 2>&1 &
P=$!; i=0
while ! ps -eo args | grep -v grep | grep -q __cotenant; do i=$((i+1)); [ $i -lt 600 ] || break; sleep 0.1; done
sleep 2
{ echo "--- before SIGKILL ($(date -u +%T))"; ours; nvidia-smi --query-compute-apps=pid,name --format=csv; } >$W/sigkill.txt 2>&1
kill -9 $P; wait $P 2>/dev/null
for s in 1 2 5 10 20; do sleep $s; { echo "--- after SIGKILL +${s}s step ($(date -u +%T))"; ours; nvidia-smi --query-compute-apps=pid,name --format=csv; ls -d /tmp/mempath-mps-* 2>&1; } >>$W/sigkill.txt 2>&1; done
cat $W/sigkill.txt; grep -A4 mthp_sizes $W/doctor-measure.txt; grep -E "measured here" -A1 $W/doctor-measure.txt; grep touch_rate $W/full-ft.txt | grep write | head -16; grep "^/sys" $W/env.txt >$W/knobs-before.txt; cmp -s $W/knobs-before.txt $W/knobs-after.txt && echo knobs-same || diff $W/knobs-before.txt $W/knobs-after.txt
