#!/bin/sh
# cpu.latency at 1 GiB, 4 KiB pages, before (0eca0c3, OLD_SRC: a tarball of
# its tree, `git archive`) and after the page passes, beside multichase,
# interleaved rounds (before-after.log)
. "$(dirname "$0")/common.sh"
mkdir -p /tmp/old && tar xzf "${OLD_SRC:?OLD_SRC: 0eca0c3 as a tarball}" -C /tmp/old &&
	make -C /tmp/old -j16 MPI=0 GPU=0 >"$R/build-old.log" 2>&1 || { tail -20 "$R/build-old.log"; exit 1; }
log "built: $(uptime); $(nproc) cpus"
for r in $(seq 1 ${ROUNDS:-6}); do
	for v in old new; do
		b=/tmp/old/build/mempath
		[ $v = new ] && b=build/mempath
		$b probe cpu.latency sizes=1G pages=4k --quiet -o "$R/$v-$r.json" >"$R/$v-$r.txt" 2>&1
	done
	a=$($MC -m 1G -s 64 -T 1G -n 6 | tail -1) b=$($MC -m 1G -s 256 -T 1G -n 6 | tail -1)
	c=$($MC -m 1G -s 256 -T 256k -n 6 | tail -1)
	log "round $r mc $a $b $c | old $(grep load_latency $R/old-$r.txt | awk '{printf "%s/%s ", $3, $4}')| new $(grep load_latency $R/new-$r.txt | awk '{printf "%s/%s ", $3, $4}')| load $(cut -d' ' -f1 /proc/loadavg) | pass $(grep -o '"page_pass": "[^"]*"' $R/new-$r.json)"
	[ $(($(date +%s) - T0)) -gt ${LIMIT:-420} ] && break
done
log done
cd "$R" && tar czf before-after.tar.gz *.json *.txt && rm -f *.json old-*.txt new-*.txt
