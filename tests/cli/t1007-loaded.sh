# cpu: cpu.loaded runs with the CPUs there are: one chases, the rest inject
# (one on a 2-CPU machine), and it says how many and where; each loaded step
# has the chase latency and the bandwidth the injectors moved, idle has none;
# the chase's translations are made present first and that is recorded.
# test: sanitizers (C paths the unit tests miss: tools/sanitize-pick.sh)
. "$top/tests/cli/lib.sh"
busy_start # the injectors' bandwidth is measured here: fail_busy
n=$(nproc)
[ "$n" -ge 2 ] || skip "one CPU: nothing to inject with"
"$MEMPATH" probe cpu.loaded size=32M inject=8M delays=0,idle mixes=read,r1w1 --reps 3 \
	--warmups 1 -o ld.json >ld.txt 2>&1 || fail "probe failed: $(tail -n 3 ld.txt)"
grep -q "\"injectors\": \"$((n - 1)) on CPU" ld.json ||
	fail "expected $((n - 1)) injectors: $(grep injectors ld.json)"
grep -q '"injector_on_chase_core": "' ld.json || fail "placement not said"
[ -n "$(csv_value ld.json cpu.loaded loaded_latency "mix=none,delay=idle")" ] || fail "no idle step"
grep -q 'injected_bw *mix=none' ld.txt && fail "the idle step has an injected bandwidth"
still=""
for m in read r1w1; do
	lat=$(csv_value ld.json cpu.loaded loaded_latency "mix=$m,delay=0")
	bw=$(csv_value ld.json cpu.loaded injected_bw "mix=$m,delay=0")
	[ -n "$lat" ] && [ -n "$bw" ] || fail "mix=$m delay=0: latency '$lat' bandwidth '$bw'"
	# full speed moves something; how much is the machine's business (the
	# median over the chase's samples: beside a second make test, load 12
	# on 2 CPUs, the one injector had no CPU in most of them and it read 0),
	# judged after the checks below
	awk -v b="$bw" 'BEGIN { exit !(b > 0) }' || still="$still mix=$m at full speed moved $bw GB/s;"
done
grep -q '"curve": {' ld.json || fail "no curve in extra"
# the page passes before the first step are recorded with the chase's size
grep -A 12 '"page_pass": \[' ld.json | grep -q '"size": "32M"' ||
	fail "no page-pass record for the 32M chase: $(grep -A 12 '"page_pass"' ld.json)"
# the chase's on-CPU share is recorded for every step, idle too (a share, not a speed)
on=$(csv_value ld.json cpu.loaded chase_on_cpu "mix=none,delay=idle")
awk -v o="$on" 'BEGIN { exit !(o > 0 && o <= 101) }' || fail "chase_on_cpu at idle: '$on'"
# one injector when asked for one
"$MEMPATH" probe cpu.loaded size=16M inject=4M injectors=1 delays=idle --reps 2 --warmups 0 \
	-o one.json >one.txt 2>&1 || fail "injectors=1 failed: $(tail -n 3 one.txt)"
grep -q '"injectors": "1 on CPU' one.json || fail "injectors=1: $(grep injectors one.json)"
"$MEMPATH" probe cpu.loaded delays=fast >bad.txt 2>&1 && fail "delays=fast accepted"
grep -q "bad delays" bad.txt || fail "delays=fast refused without the reason: $(cat bad.txt)"
[ -z "$still" ] || fail_busy "$still"
exit 0
