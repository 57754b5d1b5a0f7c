# fleet merge, fleet and check on bad input: a file that is not a results
# file, one run given twice, two nodes of one name, options that name
# nothing, a corrupt fleet or reference file: one error line naming the
# thing, exit 2. A node that only skipped and files of other builds are notes.
# test: sanitizers (C paths the unit tests miss: tools/sanitize-pick.sh)
. "$top/tests/cli/lib.sh"
d=$top/tests/data
q=$top/docs/results/vm-quick-2026-11-30.json
expect_fail 2 "$MEMPATH" fleet merge
expect_fail 2 "$MEMPATH" fleet merge "$q" "$d/compare-effect.json"
grep -q "compare-effect.json' has schema 'mempath/compare/1'" err.txt || fail "compare file: $(cat err.txt)"
expect_fail 2 "$MEMPATH" fleet merge "$q" "$d/corrupt-truncated.json"
grep -q 'is not valid JSON' err.txt || fail "truncated: $(cat err.txt)"
expect_fail 2 "$MEMPATH" fleet merge "$q" "$q"
grep -q "is given twice" err.txt || fail "one file twice: $(cat err.txt)"
cp "$q" twin.json
expect_fail 2 "$MEMPATH" fleet merge "$q" x=twin.json
grep -q "'twin.json' holds the same run as" err.txt || fail "one run twice: $(cat err.txt)"
expect_fail 2 "$MEMPATH" fleet merge a="$q" a="$top/docs/results/vm-full-2026-11-30.json"
grep -q "two nodes named 'a'" err.txt || fail "two nodes of one name: $(cat err.txt)"
expect_fail 2 "$MEMPATH" fleet merge ="$q"
expect_fail 2 "$MEMPATH" fleet merge "$q" --suite cpu
expect_fail 2 "$MEMPATH" fleet merge "$q" -o "$q"
expect_fail 2 "$MEMPATH" fleet --only nosuch
expect_fail 2 "$MEMPATH" fleet --only cpu.latency nosuch=1
grep -q "no probe of the selection has the option" err.txt || fail "unknown option: $(cat err.txt)"
expect_fail 2 "$MEMPATH" fleet --only cpu.latency min=banana
expect_fail 2 "$MEMPATH" fleet --z 0.5
expect_fail 2 "$MEMPATH" fleet stray
# a node that only skipped, and a file of another build: notes, not errors
sed 's/"version": "0.1.0"/"version": "0.0.9"/; s/"hostname": "vm"/"hostname": "old"/' "$q" >old.json
cat >skips.json <<'J'
{"schema": "mempath/run/1", "tool": {"version": "0.1.0", "git": "x"}, "start_time": "2026-11-30T01:00:00Z",
 "host": {"hostname": "gpuless", "cpu": {"model": "AMD EPYC", "logical_cpus": 2}, "memory": {"MemTotal": 25276514304}},
 "probes": [{"name": "gpu.stream", "status": "skip", "reason": "no usable CUDA device", "params": {}, "metrics": []}]}
J
"$MEMPATH" fleet merge "$q" old.json skips.json -o f.json >out.txt 2>err.txt
[ $? -eq 0 ] || fail "notes are not errors: $(cat err.txt)"
grep -q 'note: files from different mempath builds' out.txt || fail "no note on builds: $(cat out.txt)"
grep -q 'note on gpuless: every probe skipped (gpu.stream: no usable CUDA device)' out.txt ||
	fail "no note on the node that only skipped: $(cat out.txt)"
# a corrupt fleet file
sed 's/"thresholds": {/"thresholds": {"z": "high", "x": {/' f.json >bad.json
expect_fail 2 "$MEMPATH" report bad.json
head -c 2000 f.json >cut.json
expect_fail 2 "$MEMPATH" report cut.json
# check: no reference values for the kind, a corrupt reference file
sed 's/"model": "AMD EPYC"/"model": "Some CPU"/' "$q" >other.json
mkdir kinds && cp "$top/data/vm-epyc-2.json" kinds/
expect_fail 2 "$MEMPATH" check other.json --refs kinds
grep -q 'no reference values for this kind of machine (Some CPU x2' err.txt || fail "unknown kind: $(cat err.txt)"
# with data/'s limits: judged against them, the DRAM limit unknown without its facts
"$MEMPATH" check other.json >lim.txt
[ $? -eq 1 ] && grep -q 'why: the limit (dram) is unknown: no DRAM facts in the fingerprint' lim.txt ||
	fail "unknown kind against the limits: $(cat lim.txt)"
mkdir refs && echo '{"schema": "mempath/reference/1", "kind": "x", "match": {}, "run": [], "values": [{"path": "p"}]}' >refs/x.json
expect_fail 2 "$MEMPATH" check "$q" --refs refs
grep -q "refs/x.json' is not a valid reference file: values\[0\].means is missing" err.txt ||
	fail "corrupt reference: $(cat err.txt)"
expect_fail 2 "$MEMPATH" check "$q" --refs nosuchdir
expect_fail 2 "$MEMPATH" check "$q" "$q"
# check on a committed file: every path PASS against the values taken from
# it, but for the two latency paths, whose labels gained stride_bytes after
# the file was made: INCONCLUSIVE with that reason, exit 1
"$MEMPATH" check "$q" >check.txt
[ $? -eq 1 ] || fail "check of the reference's own file: $(cat check.txt)"
grep -q '^3 PASS, 0 WARN, 0 FAIL, 2 INCONCLUSIVE$' check.txt || fail "check: $(tail -1 check.txt)"
[ "$(grep -c "why: cpu.latency's load_latency is labelled size=256M,pages=[a-z0-9]*,order=random, not by the reference's labels" check.txt)" -eq 2 ] ||
	fail "latency paths: $(grep -A2 INCONCLUSIVE check.txt)"
grep -q 'means: bytes read once (GB = 1e9)' check.txt || fail "check does not say what a number means"
exit 0
