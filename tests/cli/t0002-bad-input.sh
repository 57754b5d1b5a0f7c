# basics: bad input gives one error line and a non-zero exit, never a crash
# test: sanitizers (C paths the unit tests miss: tools/sanitize-pick.sh)
. "$top/tests/cli/lib.sh"
expect_fail 2 "$MEMPATH" probe no.such.probe
expect_fail 2 "$MEMPATH" probe cpu.first_touch size=12X
grep -q "size" err.txt || fail "bad size message should name the option"
expect_fail 2 "$MEMPATH" probe cpu.first_touch size=
expect_fail 2 "$MEMPATH" run --only ""
expect_fail 2 "$MEMPATH" run --only ,
expect_fail 2 "$MEMPATH" probe cpu.first_touch pages=huge
expect_fail 2 "$MEMPATH" probe cpu.first_touch nosuchopt=1
expect_fail 2 "$MEMPATH" probe cpu.first_touch --reps 0
expect_fail 2 "$MEMPATH" probe
expect_fail 2 "$MEMPATH" run --suite bogus
expect_fail 2 "$MEMPATH" run --reps x
expect_fail 2 "$MEMPATH" run --format xml
expect_fail 2 "$MEMPATH" run --only no.such
expect_fail 2 "$MEMPATH" report
expect_fail 2 "$MEMPATH" report /nonexistent/file.json
echo '{"schema": "mempath/run/1", "probes": [' >trunc.json
expect_fail 2 "$MEMPATH" report trunc.json
echo '{"schema": "other/1", "probes": []}' >schema.json
expect_fail 2 "$MEMPATH" report schema.json
echo '{"schema": "mempath/run/1", "probes": [{"name": "x", "status": "ok", "metrics": [{"name": "m", "unit": "GB/s", "samples": [1, "a"]}]}]}' >badsample.json
expect_fail 2 "$MEMPATH" report badsample.json
printf '\000\001\002' >binary.json
expect_fail 2 "$MEMPATH" report binary.json
# An output that is one of the inputs is refused and the input kept.
cp "$top/tests/data/cmp-aa-1.json" in.json
ln -s in.json link.json
expect_fail 2 "$MEMPATH" report in.json --format md -o in.json
expect_fail 2 "$MEMPATH" compare in.json "$top/tests/data/cmp-aa-2.json" -o link.json
expect_fail 2 "$MEMPATH" doctor --from in.json -o in.json
grep -q 'refusing to write' err.txt || fail "no reason given: $(cat err.txt)"
cmp -s in.json "$top/tests/data/cmp-aa-1.json" || fail "an input was overwritten"
# A write to stdout that fails is an error; a reader that goes away costs the
# output, never the results file.
for c in "list" "--version" "help run" "sysinfo --json"; do
	# shellcheck disable=SC2086
	"$MEMPATH" $c >/dev/full 2>err.txt && fail "'$c' to a full disk exited 0"
	grep -q 'cannot write to standard output' err.txt || fail "'$c': $(cat err.txt)"
done
"$MEMPATH" wrap -q -n 2 -o w.json -- true 2>/dev/null | true
# A reader that left (| head) is exit 1 without a line about it (design.md
# §2.1); the report is 355 KiB, more than the pipe holds, so the write fails.
for f in json; do
	{
		"$MEMPATH" report "$top/docs/results/vm-full-2026-11-30.json" --format $f 2>pipe.err
		echo $? >pipe.rc
	} | head -c 10 >/dev/null
	[ "$(cat pipe.rc)" = 1 ] || fail "report --format $f | head exited $(cat pipe.rc), not 1"
	[ -s pipe.err ] && fail "report --format $f | head: $(cat pipe.err)"
done
[ -s w.json ] || fail "wrap | true lost the results file"
"$MEMPATH" report w.json >/dev/null || fail "wrap | true left a broken results file"
# A metric with no counted sample is absent, never a median of 0.
sed '41s|"samples": \[[^]]*\]|"samples": []|' "$top/tests/data/cmp-aa-1.json" >empty.json
grep -q '"samples": \[\]' empty.json || fail "the fixture changed"
"$MEMPATH" report empty.json >e.txt || fail "report exited $?"
grep -q '^   copy_bw  *threads=1  *-  *-  *-  *-  *-  *0  GB/s$' e.txt || fail "term: $(grep copy_bw e.txt)"
"$MEMPATH" report empty.json --format csv | grep -q '^cpu.stream,ok,copy_bw,threads=1,GB/s,higher,0,,,,,,$' ||
	fail "csv: $("$MEMPATH" report empty.json --format csv | grep copy_bw)"
"$MEMPATH" report empty.json --format md | grep -q '^| copy_bw | threads=1 | - | - | - | - | 0 | GB/s |$' ||
	fail "md: $("$MEMPATH" report empty.json --format md | grep copy_bw)"
"$MEMPATH" compare empty.json "$top/tests/data/cmp-aa-2.json" >c.txt
grep '^cpu.stream copy_bw' c.txt | grep -q ' -  .*too few samples: n=0' || fail "compare: $(grep copy_bw c.txt)"
# Products of user sizes saturate instead of wrapping: refused, never a crash.
"$MEMPATH" probe work.decode weights=1M kv=16K batch=18446744073709551615 threads=1 --reps 1 \
	--warmups 0 >wd.txt 2>wd.err
[ $? -eq 1 ] || fail "a wrapping product: exit not 1: $(cat wd.txt)"
grep -q 'crashed' wd.txt && fail "a wrapping product crashed the probe"
grep -q 'fail: weights + batch x kv + hog exceed' wd.txt || fail "not refused: $(cat wd.txt)"
"$MEMPATH" probe work.decode weights=1M kv=16K batch=18446744073709551615 threads=1 --reps 1 \
	--warmups 0 --force >wd.txt 2>wd.err
grep -q 'crashed' wd.txt && fail "a wrapping product crashed the probe under --force"
# Pinned thread counts that no CPU here can take are bad input (design.md
# §6.5), refused before the probe runs; a list keeps the counts that fit.
cpus=$(nproc)
expect_fail 2 "$MEMPATH" probe cpu.stream threads=$((cpus + 97))
grep -q "more threads than the $cpus CPUs" err.txt || fail "threads above the CPUs: $(cat err.txt)"
expect_fail 2 "$MEMPATH" run --only cpu.stream --reps 1 threads=x
expect_fail 2 "$MEMPATH" probe cpu.reach threads=1,x
# -q is --quiet for every command that has it.
for c in run probe check fleet wrap phantom; do
	"$MEMPATH" help $c | grep -q -- '-q, --quiet' || fail "$c has no -q"
done
"$MEMPATH" probe cpu.stream threads=1,$((cpus + 97)) size=64K kernels=read stores=temporal \
	pages=4k --reps 1 --warmups 0 -q -o th.json >th.txt 2>th.err || fail "a list with a count that fits: $(cat th.err)"
grep -v -e '^mempath: warning: ' -e '^results: ' th.err >progress.txt
[ -s progress.txt ] && fail "-q printed progress on stderr: $(cat progress.txt)"
grep -q '"threads_dropped"' th.json || fail "the dropped count is not recorded"
# Sizes above 80% of MemAvailable are refused unless --force.
"$MEMPATH" probe cpu.first_touch size=64T --reps 1 --warmups 0 >out.txt 2>err.txt
grep -q "MemAvailable" out.txt err.txt || fail "an oversize request should name MemAvailable"
grep -q "fail" out.txt || fail "an oversize request should fail the probe"
exit 0
