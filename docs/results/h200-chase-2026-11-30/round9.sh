#!/bin/sh
# one run on the H200 machine (OUT: the results folder): cpu.latency at 1 GiB, 4 KiB pages, before (0eca0c3) and
# after the page passes, beside multichase, interleaved rounds
set -u
T0=$(date +%s)
R=$OUT
mkdir -p /opt/dd
for f in third_party/debs/*.deb; do dpkg -x "$f" /opt/dd; done
L=/opt/dd/usr/lib/x86_64-linux-gnu
export C_INCLUDE_PATH=/opt/dd/usr/include LIBRARY_PATH=$L LD_LIBRARY_PATH=$L
log() { echo "[+$(($(date +%s) - T0))s] $*" | tee -a "$R/log.txt"; }
make -j16 MPI=0 GPU=0 >"$R/build.log" 2>&1 || { tail -20 "$R/build.log"; exit 1; }
mkdir -p /tmp/old && tar xzf .devdeps/old-0eca0c3.tar.gz -C /tmp/old &&
	make -C /tmp/old -j16 MPI=0 GPU=0 >"$R/build-old.log" 2>&1 || { tail -20 "$R/build-old.log"; exit 1; }
cp -r build-ref/multichase /tmp/mc && make -C /tmp/mc multichase >"$R/mc-build.log" 2>&1 ||
	make -C /tmp/mc multichase LDFLAGS="-g -O3 -pthread" >>"$R/mc-build.log" 2>&1 || { tail "$R/mc-build.log"; exit 1; }
MC=/tmp/mc/multichase
log "built: $(uptime); $(nproc) cpus; $(build/mempath --version 2>&1 | head -1)"
for r in $(seq 1 ${ROUNDS:-6}); do
	for v in old new; do
		b=/tmp/old/build/mempath; [ $v = new ] && b=build/mempath
		$b probe cpu.latency sizes=1G pages=4k --quiet -o "$R/$v-$r.json" >"$R/$v-$r.txt" 2>&1
	done
	a=$($MC -m 1G -s 64 -T 1G -n 6 | tail -1); b=$($MC -m 1G -s 256 -T 1G -n 6 | tail -1); c=$($MC -m 1G -s 256 -T 256k -n 6 | tail -1)
	log "round $r mc $a $b $c | old $(grep load_latency $R/old-$r.txt | awk '{printf "%s/%s ", $3, $4}')| new $(grep load_latency $R/new-$r.txt | awk '{printf "%s/%s ", $3, $4}')| load $(cut -d' ' -f1 /proc/loadavg) | pass $(grep -o '"page_pass": "[^"]*"' $R/new-$r.json)"
	[ $(($(date +%s) - T0)) -gt ${LIMIT:-420} ] && break
done
log done
cd "$R" && tar czf r9.tar.gz *.json *.txt && rm -f *.json old-*.txt new-*.txt
