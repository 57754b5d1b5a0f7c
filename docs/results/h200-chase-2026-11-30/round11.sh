#!/bin/sh
# one run on the H200 machine (OUT: the results folder): what makes cpu.latency's random 256 B chain slower than
# multichase -s 256 on this host: first touch (memset or the chain's own
# writes) x node placement (hashed line or multichase's mixer), beside
# multichase and mempath, interleaved rounds
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
gcc -O2 .devdeps/v.c -o /tmp/v || exit 1
MC=/tmp/mc/multichase
log "built: $(uptime); $(nproc) cpus"
for r in $(seq 1 ${ROUNDS:-6}); do
	line="round $r mc $($MC -m 1G -s 256 -T 1G -n 6 | tail -1) |"
	for v in "1 0 1 1" "1 0 1 0"; do line="$line $(/tmp/v $v | sed 's/ 0x.*//') |"; done
	for w in 2 40; do
		build/mempath probe cpu.latency sizes=1G pages=4k order=local --warmups $w --quiet -o "$R/p-$r-$w.json" >/dev/null 2>&1
		line="$line mempath warmups=$w r256 min $(build/mempath report "$R/p-$r-$w.json" --format csv | awk -F'"' '/order=random/ { split($3, v, ","); printf "%s", v[8] }') |"
	done
	log "$line"
	[ $(($(date +%s) - T0)) -gt ${LIMIT:-420} ] && break
done
log done
cd "$R" && tar czf r12.tar.gz *.json && rm -f *.json
