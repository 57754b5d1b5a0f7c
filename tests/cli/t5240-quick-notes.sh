# a quick run says how its figures differ from the full suite's (the
# probe's quick options and, where the difference is one by design, why:
# the report's "quick suite:" line and the param quick_suite); cpu.latency's
# params say which stride its rows' stride_bytes label is (the curve is one
# node per 64 B line, the option stride is the random/local pair's), and
# every stride_bytes label of its rows is one of the two.
. "$top/tests/cli/lib.sh"

"$MEMPATH" probe cpu.latency --quick --reps 3 --warmups 0 sizes=16K,1M -o q.json >q.txt 2>err.txt ||
	fail "quick probe: $(cat err.txt)"
grep -q '^   quick suite: sizes=16K,256K,4M,256M: four sizes: too few for the cache knee' q.txt ||
	fail "no quick suite line: $(head -5 q.txt)"
"$MEMPATH" report q.json >r.txt || fail "report"
grep -q '^   quick suite: sizes=' r.txt || fail "the report of the file lost the quick suite line"
tr -d '\n' <q.json | grep -q '"curve_stride": *"64 (the curve.s rows, labelled stride_bytes=64: one node per 64 B line; the option stride, 256, is the random/local pair.s, labelled stride_bytes=256)"' ||
	fail "no curve_stride param: $(grep -o '"curve_stride[^,]*' q.json)"
strides=$(grep -o '"stride_bytes": *"[0-9]*"' q.json | sort -u | grep -o '[0-9]*')
[ -n "$strides" ] || fail "no stride_bytes labels"
for s in $strides; do
	[ "$s" = 64 ] || [ "$s" = 256 ] || fail "a row labelled stride_bytes=$s, neither the curve's nor the option's"
done
grep -q '"stride_bytes": *"256"' q.json || fail "no row of the pair at stride 256 (1M is above the 256K group)"

# the full suite's run says nothing of the kind
"$MEMPATH" probe cpu.latency --reps 3 --warmups 0 sizes=16K -o f.json >f.txt 2>err.txt || fail "probe: $(cat err.txt)"
! grep -q 'quick suite' f.txt || fail "a run that is not quick says quick suite"
! grep -q quick_suite f.json || fail "a run that is not quick records quick_suite"

exit 0
