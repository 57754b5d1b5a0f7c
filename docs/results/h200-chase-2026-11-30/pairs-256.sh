#!/bin/sh
# the 256 B pair (random and local order) at 1 GiB, 4 KiB pages, beside
# multichase -s 256 (-T 1G and -T 256k), interleaved pairs, alternating which
# runs first (pairs-256.log)
. "$(dirname "$0")/common.sh"
log "built: $(uptime); $(nproc) cpus"
mp() { build/mempath probe cpu.latency sizes=1G pages=4k order=local --quiet -o "$R/p-$1.json" >/dev/null 2>&1; mp_rows "$R/p-$1.json"; }
mc() { echo "$($MC -m 1G -s 256 -T 1G -n 6 | tail -1) $($MC -m 1G -s 256 -T 256k -n 6 | tail -1)"; }
for r in $(seq 1 ${ROUNDS:-20}); do
	if [ $((r % 2)) -eq 1 ]; then a=$(mc); b=$(mp $r); else b=$(mp $r); a=$(mc); fi
	log "pair $r mc r256/l256 $a | mempath $b | load $(cut -d' ' -f1 /proc/loadavg)"
	[ $(($(date +%s) - T0)) -gt ${LIMIT:-420} ] && break
done
log done
cd "$R" && tar czf pairs-256.tar.gz *.json && rm -f *.json
