#!/bin/sh
# one run on the H200 machine (OUT: the results folder): the 256 B pair (random and local order) at 1 GiB, 4 KiB
# pages, beside multichase -s 256 (-T 1G and -T 256k), interleaved pairs,
# alternating which runs first
set -u
T0=$(date +%s)
R=$OUT
mkdir -p /opt/dd
for f in third_party/debs/*.deb; do dpkg -x "$f" /opt/dd; done
L=/opt/dd/usr/lib/x86_64-linux-gnu
export C_INCLUDE_PATH=/opt/dd/usr/include LIBRARY_PATH=$L LD_LIBRARY_PATH=$L
log() { echo "[+$(($(date +%s) - T0))s] $*" | tee -a "$R/log.txt"; }
make -j16 MPI=0 GPU=0 >"$R/build.log" 2>&1 || { tail -20 "$R/build.log"; exit 1; }
rm -rf /tmp/mc && cp -r build-ref/multichase /tmp/mc && { make -C /tmp/mc multichase >"$R/mc-build.log" 2>&1 ||
	make -C /tmp/mc multichase LDFLAGS="-g -O3 -pthread" >>"$R/mc-build.log" 2>&1; } || { tail "$R/mc-build.log"; exit 1; }
MC=/tmp/mc/multichase
log "built: $(uptime); $(nproc) cpus"
mp() { build/mempath probe cpu.latency sizes=1G pages=4k order=local --quiet -o "$R/p-$1.json" >/dev/null 2>&1; echo "$(build/mempath report "$R/p-$1.json" --format csv | awk -F'"' '/load_latency/ { split($3, v, ","); printf "%s/%s ", v[5], v[8] }')"; }
mc() { echo "$($MC -m 1G -s 256 -T 1G -n 6 | tail -1) $($MC -m 1G -s 256 -T 256k -n 6 | tail -1)"; }
for r in $(seq 1 ${ROUNDS:-20}); do
	if [ $((r % 2)) -eq 1 ]; then a=$(mc); b=$(mp $r); else b=$(mp $r); a=$(mc); fi
	log "pair $r mc r256/l256 $a | mempath $b | load $(cut -d' ' -f1 /proc/loadavg)"
	[ $(($(date +%s) - T0)) -gt ${LIMIT:-420} ] && break
done
log done
cd "$R" && tar czf r10.tar.gz *.json && rm -f *.json
