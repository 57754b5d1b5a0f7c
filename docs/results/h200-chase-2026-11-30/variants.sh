#!/bin/sh
# what makes cpu.latency's random 256 B chain slower than multichase -s 256
# on this host: the standalone chase (chase-variants.c: TOUCH PLACE PIN LAP)
# with one factor changed at a time, beside multichase and mempath,
# interleaved rounds. MODE=layout (first touch x placement; layout.log),
# lap (a lap before timing or not, mempath with 2 or 40 warm-ups; lap.log),
# placement (hashed line vs multichase's mixer; placement.log).
. "$(dirname "$0")/common.sh"
case ${MODE:?MODE: layout, lap or placement} in
layout) variants="1 0 1 1,1 1 1 1,0 0 1 1,0 1 1 1" warmups=2 ;;
lap) variants="1 0 1 1,1 0 1 0" warmups="2 40" ;;
placement) variants="1 0 1 1,1 1 1 1" warmups=2 ;;
*) echo "MODE: layout, lap or placement" >&2; exit 2 ;;
esac
gcc -O2 "$here/chase-variants.c" -o /tmp/v || exit 1
log "built: $(uptime); $(nproc) cpus"
for r in $(seq 1 ${ROUNDS:-6}); do
	line="round $r mc $($MC -m 1G -s 256 -T 1G -n 6 | tail -1) |"
	IFS=,
	for v in $variants; do
		IFS=' '
		line="$line $(/tmp/v $v | sed 's/ 0x.*//') |"
	done
	IFS=' '
	for w in $warmups; do
		build/mempath probe cpu.latency sizes=1G pages=4k order=local --warmups $w --quiet -o "$R/p-$r-$w.json" >/dev/null 2>&1
		line="$line mempath warmups=$w r256 min $(build/mempath report "$R/p-$r-$w.json" --format csv | awk -F'"' '/order=random/ { split($3, v, ","); printf "%s", v[8] }') |"
	done
	log "$line"
	[ $(($(date +%s) - T0)) -gt ${LIMIT:-420} ] && break
done
log done
cd "$R" && tar czf "$MODE.tar.gz" *.json && rm -f *.json
