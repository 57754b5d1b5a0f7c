# cpu: MEMPATH_CPU_DMA_LATENCY holds a CPU latency request on
# /dev/cpu_dma_latency for the run: the fingerprint's knob
# cpu_dma_latency_us reads it, compare names the knob between a run with
# and one without, the request ends with the process (also after SIGKILL),
# and a bad value is one error line and exit 2.
# test: alone (its request on /dev/cpu_dma_latency is a knob every fingerprint beside it reads)
. "$top/tests/cli/lib.sh"
[ -e /dev/cpu_dma_latency ] || skip "no /dev/cpu_dma_latency (a kernel without PM QoS)"
[ "$(id -u)" = 0 ] || skip "not root: /dev/cpu_dma_latency can be read and written as root only"
knob() { "$MEMPATH" sysinfo --json | sed -n 's/.*"cpu_dma_latency_us": *\([0-9-]*\).*/\1/p'; }
before=$(knob)
[ -n "$before" ] || fail "sysinfo has no cpu_dma_latency_us"
[ "$before" != 0 ] || skip "another process holds a request of 0 already: nothing to tell apart"

expect_fail 2 env MEMPATH_CPU_DMA_LATENCY=soon "$MEMPATH" sysinfo --json
grep -q "MEMPATH_CPU_DMA_LATENCY=soon" err.txt || fail "the bad value is not named: $(cat err.txt)"

held=$(MEMPATH_CPU_DMA_LATENCY=0 "$MEMPATH" sysinfo --json |
	sed -n 's/.*"cpu_dma_latency_us": *\([0-9-]*\).*/\1/p')
[ "$held" = 0 ] || fail "with MEMPATH_CPU_DMA_LATENCY=0 the knob reads '$held'"
[ "$(knob)" = "$before" ] || fail "the request outlived the run: $(knob), was $before"

"$MEMPATH" probe cpu.first_touch size=8M --reps 3 --warmups 0 -o a.json >/dev/null 2>&1 ||
	fail "the run without a request failed"
MEMPATH_CPU_DMA_LATENCY=0 "$MEMPATH" probe cpu.first_touch size=8M --reps 3 --warmups 0 \
	-o b.json >/dev/null 2>&1 || fail "the run with a request failed"
"$MEMPATH" compare a.json b.json >cmp.txt 2>&1
grep -q "cpu_dma_latency_us" cmp.txt || fail "compare does not name the knob: $(head -n 20 cmp.txt)"

# SIGKILL: the kernel drops the request with the file
MEMPATH_CPU_DMA_LATENCY=0 spawn "$MEMPATH" probe cpu.first_touch size=8M --reps 200 -o k.json
sid=$spawned
i=0
while [ "$(knob)" != 0 ]; do
	i=$((i + 1))
	[ $i -lt 600 ] || { kill -9 "$sid"; fail "the request was not seen in 60 s"; }
	sleep 0.1
done
kill -9 "$sid"
wait "$sid" 2>/dev/null
i=0
while [ "$(knob)" != "$before" ]; do
	i=$((i + 1))
	[ $i -lt 100 ] || fail "the request outlived SIGKILL by 10 s: $(knob)"
	sleep 0.1
done
exit 0
