# cpu: --reps auto fits into the probe's timeout: it says its plan at the
# start, and past two thirds of the timeout the metrics still to come take
# their least samples, so a probe whose first metric would sample for 1000 s
# (a CI of +-0.001% is never reached) ends with every metric, recorded why
# (auto_deadline). The last metric then needs 10 samples of 50 ms: 4 s of
# the 12 s timeout are left for them. 256 MiB arrays: one read pass takes
# over 8 ms however the calibration came out (at 30 GB/s from one thread), so the first metric cannot
# reach its most samples (1000) before the deadline (with 1 MiB it could, on
# a fast moment, and the second metric then sampled on to the deadline).
. "$top/tests/cli/lib.sh"
"$MEMPATH" probe cpu.stream size=256M kernels=read,write stores=temporal pages=4k threads=1 \
	--reps auto --ci 0.00001 --budget 1000 --timeout 12 -o a.json >a.txt 2>a.err ||
	fail "probe exited $?: $(cat a.err a.txt)"
grep -q '^cpu.stream: --reps auto: each metric samples until .* past 8 s, 67% of the probe.s 12 s timeout' a.err ||
	fail "no plan at the start: $(cat a.err)"
"$MEMPATH" report a.json --format csv >a.csv || fail "report"
grep -q '^cpu.stream,ok' a.csv || fail "the probe did not end ok: $(head -3 a.csv)"
grep -q '"auto_deadline": "at 8 s' a.json || fail "no auto_deadline recorded"
# the first metric sampled past its least, the one after took its least
n_of() { # counted samples of cpu.stream bandwidth kernel=$1
	awk -F'"' -v k="kernel=$1," '$1 == "cpu.stream,ok,bandwidth," && index($2, k) == 1 {
		split($3, f, ","); print f[4] }' a.csv
}
[ "$(n_of read)" -gt 10 ] || fail "the read metric took no more than its least: $(n_of read)"
[ "$(n_of write)" = 10 ] || fail "the write metric: $(n_of write) samples, not its least 10"
exit 0
