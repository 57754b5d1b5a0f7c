# cpu: `run` prints each probe's table as soon as the probe ends (before the
# next one starts); on a pipe one line when a probe starts and ends and no
# steps or status line; on a terminal a status line with the probe and an
# ETA; nothing of it with --quiet; a GPU probe of the suite on a machine
# without a GPU is in the table as skipped, with the reason; before the
# first probe, what the plan will take here: this host's last times, else
# the registry's typical ones (a probe never timed named), not with other
# options or sampling, not with --quiet; the ETA from typical times is "~"
# test: sanitizers (C paths the unit tests miss: tools/sanitize-pick.sh)
. "$top/tests/cli/lib.sh"
export XDG_CACHE_HOME=$PWD/cache
"$MEMPATH" run --only cpu.wake,work.decode,gpu.latency --reps 2 --warmups 0 -o r.json \
	>both.txt 2>&1 || fail "run: $(cat both.txt)"
# stdout and stderr in one file, in the order written: the first table
# comes before the second probe starts
t1=$(grep -n '^== cpu.wake ' both.txt | cut -d: -f1)
s2=$(grep -n '^\[2/3\] work.decode \.\.\.' both.txt | cut -d: -f1)
[ -n "$t1" ] && [ -n "$s2" ] || fail "no table or no start line: $(cat both.txt)"
[ "$t1" -lt "$s2" ] || fail "cpu.wake's table came after work.decode started: $(cat both.txt)"
grep -q '^\[1/3\] cpu.wake ok' both.txt || fail "no end line on a pipe: $(cat both.txt)"
! grep -q "$(printf '\033')" both.txt || fail "escape sequences on a pipe: $(cat -v both.txt)"
! grep -q '^work.decode: iteration' both.txt || fail "a probe's steps on a pipe: $(cat both.txt)"
! grep -q 'ETA' both.txt || fail "a status line on a pipe: $(cat both.txt)"
if "$MEMPATH" sysinfo --json | grep -q '"devices"'; then
	echo "a GPU is here: gpu.latency runs"
else
	grep -q '^== gpu.latency  skip: not run: no GPU here (.' both.txt ||
		fail "the suite's GPU probe is not reported as skipped with a reason: $(cat both.txt)"
	"$MEMPATH" report r.json --format csv | grep -q '^gpu.latency,skip' ||
		fail "the skipped probe is not in the results file"
	# several GPU probes skipped for one reason: the reason is said once
	"$MEMPATH" run --only gpu.stream,gpu.latency,gpu.copy -o g.json >g.txt 2>g.err ||
		fail "run of GPU probes: $(cat g.err)"
	[ "$(grep -c 'no GPU here' g.txt)" = 1 ] || fail "the table repeats the reason: $(cat g.txt)"
	grep -q '^== gpu.copy  skip: as gpu.stream ' g.txt || fail "no 'as gpu.stream': $(cat g.txt)"
	[ "$(grep -c 'no GPU here' g.err)" = 1 ] || fail "the log repeats the reason: $(cat g.err)"
	grep -q '^\[3/3\] gpu.copy skip: as above' g.err || fail "no 'as above': $(cat g.err)"
fi
# mean +- sigma beside the median, as hyperfine shows it
"$MEMPATH" report "$top/tests/data/cmp-aa-1.json" >aa.txt || fail "report of a fixture"
grep -q ' median  *mean +- sigma  *p5 ' aa.txt || fail "no mean +- sigma column: $(grep median aa.txt)"
grep -q '^   touch_rate   pages=4k,touch=write  *1.99  *1.99 +- 0.0154 ' aa.txt ||
	fail "touch_rate's mean +- sigma: $(grep touch_rate aa.txt | head -1)"
# a figure whose CoV is above 10% is flagged, with what it means
"$MEMPATH" report "$top/docs/results/vm-full-2026-11-30.json" >full.txt || fail "report"
grep -q '  ! unsteady$' full.txt || fail "no unsteady flag in the committed full run"
grep -q '^   ! unsteady: CoV above 10%' full.txt || fail "no note of what the flag means"
awk '/! unsteady$/ && $(NF - 4) + 0 <= 10 { bad = 1 } END { exit bad }' full.txt ||
	fail "a CoV of 10% or less is flagged: $(grep 'unsteady$' full.txt | head -3)"
# the same tables as 'report' prints from the file, in the same order
"$MEMPATH" report r.json >rep.txt || fail "report"
grep '^==' both.txt | sed 's/  ([0-9.]* s)$//' >a.txt
grep '^==' rep.txt | sed 's/  ([0-9.]* s)$//' >b.txt
cmp -s a.txt b.txt || fail "streamed blocks differ from the report: $(cat a.txt b.txt)"
# --quiet on a pipe: no start or end lines
"$MEMPATH" run --only cpu.wake --reps 2 --warmups 0 --quiet -o q.json >q.out 2>q.err ||
	fail "run --quiet: $(cat q.err)"
! grep -q '^\[1/1\]' q.err || fail "--quiet printed progress: $(cat q.err)"
# a terminal: script(1) gives the run one
command -v script >/dev/null 2>&1 || skip "no script(1) here to give the run a terminal"
script -q -c "'$MEMPATH' run --only work.decode --reps 2 --warmups 0 -o t.json" /dev/null \
	>tty.txt 2>&1 </dev/null || fail "run on a terminal: $(cat -v tty.txt)"
grep -q "$(printf '\r\033\\[K')\\[1/1\\] work.decode .*ETA" tty.txt ||
	fail "no status line with an ETA on a terminal: $(cat -v tty.txt)"
grep -q '^== work.decode ' tty.txt || fail "no table on a terminal: $(cat -v tty.txt)"
script -q -c "'$MEMPATH' run --only cpu.wake --reps 2 --warmups 0 --quiet -o u.json" /dev/null \
	>ttyq.txt 2>&1 </dev/null || fail "run --quiet on a terminal: $(cat -v ttyq.txt)"
! grep -q 'ETA' ttyq.txt || fail "--quiet drew a status line: $(cat -v ttyq.txt)"
# The ETA is kept per probe, options and sampling plan: cpu.wake timed at
# mode=spin says nothing of its default modes, nor of --reps 3
"$MEMPATH" probe cpu.wake mode=spin --reps 2 --warmups 0 -q >/dev/null 2>&1 || fail "probe cpu.wake"
grep -q '	cpu.wake mode=spin reps=2 warmups=0	' cache/mempath/durations ||
	fail "the durations lack the options: $(cat cache/mempath/durations)"
grep -q '	cpu.wake reps=2 warmups=0	' cache/mempath/durations ||
	fail "the default options' duration was lost: $(cat cache/mempath/durations)"
for plan in "mode=futex --reps 2" "mode=spin --reps 3"; do
	script -q -c "'$MEMPATH' probe cpu.wake $plan --warmups 0" /dev/null >eta.txt 2>&1 </dev/null ||
		fail "probe cpu.wake $plan: $(cat -v eta.txt)"
	grep -q 'ETA ?' eta.txt || fail "$plan took the ETA of another plan: $(cat -v eta.txt)"
done
script -q -c "'$MEMPATH' probe cpu.wake mode=spin --reps 2 --warmups 0" /dev/null >eta.txt 2>&1 \
	</dev/null || fail "probe cpu.wake mode=spin: $(cat -v eta.txt)"
grep -q 'ETA [0-9]' eta.txt || fail "the same plan has no ETA: $(cat -v eta.txt)"
# the estimate before the first probe, on a fresh cache: cpu.wake at its
# typical time, cpu.numa (skips on one node, never timed) named; again, at
# this host's own time; none for --reps 3 (not what the typical times
# sample) or with --quiet
export XDG_CACHE_HOME=$PWD/cache2
for k in 1 2; do
	"$MEMPATH" run --only cpu.wake,cpu.numa -o est$k.json >est$k.out 2>est$k.txt || fail "run (estimate $k): $(cat est$k.txt)"
done
grep -q '^2 probes: about [0-9:]* s and more here (0 as they last took on this host, 1 at their typical times, never timed: cpu.numa)$' est1.txt ||
	grep -q '^2 probes: about [0-9:]* s here (0 as they last took on this host, 2 at their typical times)$' est1.txt ||
	fail "no estimate before the first probe: $(head -n 3 est1.txt)"
grep -q '^2 probes: about [0-9:]* s.* here (1 as they last took on this host, ' est2.txt ||
	fail "the second run's estimate is not this host's: $(head -n 3 est2.txt)"
"$MEMPATH" run --only cpu.wake --reps 3 --warmups 0 -o est3.json >/dev/null 2>est3.txt || fail "run --reps 3"
! grep -q ' probes: about ' est3.txt || fail "an estimate for a sampling no time was taken with: $(grep probes: est3.txt)"
"$MEMPATH" run --only cpu.wake --quiet -o est4.json >/dev/null 2>est4.txt || fail "run --quiet"
! grep -q " probes: about " est4.txt || fail "--quiet printed the estimate: $(cat est4.txt)"
export XDG_CACHE_HOME=$PWD/cache3
script -q -c "'$MEMPATH' run --only cpu.wake -o t3.json" /dev/null >eta3.txt 2>&1 </dev/null ||
	fail "run cpu.wake on a terminal: $(cat -v eta3.txt)"
grep -q 'ETA ~[0-9]' eta3.txt || fail "the typical time's ETA is not marked: $(cat -v eta3.txt | tail -n 3)"
exit 0
