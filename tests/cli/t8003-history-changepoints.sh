# history --changepoints: 30 runs of a probe whose rate drops 20% from run
# 21 on, with a kernel that changed there: trend --changepoints names run
# 21, its levels, the change with its CI and what changed; check
# --changepoints exits 1 (the newest segment is worse); bless --stable
# blesses the newest segment's runs and check judges a file against all of
# them; a run of a probe with other options is told from one not run, and
# its missing metrics are summed up, not listed one by one.
# test: sanitizers (C paths the unit tests miss: tools/sanitize-pick.sh)
. "$top/tests/cli/lib.sh"
export MEMPATH_HISTORY=$PWD/h.db
mkdir runs
awk -v dir=runs 'BEGIN {
	srand(3)
	for (i = 1; i <= 30; i++) {
		f = sprintf("%s/r%02d.json", dir, i)
		printf "{\"schema\": \"mempath/run/1\", \"label\": \"n%d\", \"suite\": \"quick\",", i >f
		printf " \"start_time\": \"2026-11-%02dT10:00:00Z\",", i >f
		printf " \"host\": {\"hostname\": \"node\", \"kernel\": \"%s\",", (i > 20 ? "6.2" : "6.1") >f
		printf " \"cpu\": {\"model\": \"Test CPU\", \"logical_cpus\": 4}}, \"probes\": [" >f
		printf "{\"name\": \"t.p\", \"status\": \"ok\", \"params\": {\"size\": \"%s\"},", (i == 30 ? "2M" : "1M") >f
		printf " \"identity\": [\"size\"], \"metrics\": [" >f
		for (m = 0; m < 3; m++) {
			printf "%s{\"name\": \"rate%d\", \"unit\": \"GB/s\", \"better\": \"higher\",", m ? "," : "", m >f
			printf " \"labels\": {}, \"samples\": [" >f
			for (s = 0; s < 8; s++)
				printf "%s%.4f", s ? "," : "", (i > 20 ? 8 : 10) * (1 + 0.02 * rand()) >f
			printf "]}" >f
		}
		printf "]}]}\n" >f
		close(f)
	} }'
"$MEMPATH" history add runs/r[012]*.json >/dev/null || fail "add"
"$MEMPATH" history trend t.p:rate0 --changepoints >cp.txt || fail "trend --changepoints: $(cat cp.txt)"
grep -q '^t.p rate0 (no labels)  (GB/s; higher is better) on Test CPU | 4 CPUs | ? GiB: 29 run(s), 1 change point(s)$' cp.txt ||
	fail "series line: $(cat cp.txt)"
grep -q '^  segment: runs 1-20 (20), 2026-11-01T10:00:00Z to 2026-11-20T10:00:00Z, median 10\.[01]' cp.txt || fail "first segment: $(cat cp.txt)"
grep -q '^  change at run 21 (2026-11-21T10:00:00Z): -[12][0-9]\.[0-9]% \[-[12][0-9]\.[0-9]%, -1[0-9]\.[0-9]%\] p=[0-9.e-]*, worse; changed: kernel "6.1" -> "6.2"$' cp.txt ||
	fail "change line: $(cat cp.txt)"
"$MEMPATH" history trend t.p:rate0 --changepoints --format csv >cp.csv || fail "csv"
[ "$(tail -n +2 cp.csv | cut -d, -f5)" = 21 ] || fail "csv: $(cat cp.csv)"
"$MEMPATH" history check --changepoints >ck.txt 2>ck.err
[ $? -eq 1 ] || fail "check --changepoints should exit 1: $(cat ck.txt ck.err)"
grep -q '^3 of 3 series end in a worse segment' ck.txt || fail "check summary: $(tail -1 ck.txt)"
# the newest segment as the baseline: every run of it, a file checked against them all
"$MEMPATH" history bless --stable t.p:rate0 >b.txt || fail "bless --stable: $(cat b.txt)"
grep -q "^runs 22, 23, 24, 25, 26, 27, 28, 29 (8 runs) are the baseline\|^runs 21, 22, 23, 24, 25, 26, 27, 28, 29 (9 runs) are the baseline" b.txt ||
	fail "bless --stable: $(cat b.txt)"
"$MEMPATH" history check runs/r22.json >c.txt 2>c.err || fail "check against the segment: $(cat c.txt c.err)"
grep -q '^summary: 0 WIN, 0 LOSS' c.txt || fail "check summary: $(tail -2 c.txt)"
"$MEMPATH" history check runs/r10.json >w.txt 2>w.err
[ $? -eq 0 ] || fail "a faster run is no LOSS: $(cat w.err)"
"$MEMPATH" history bless 1 2 3 4 >b3.txt || fail "bless a set"
grep -q "^runs 1, 2, 3, 4 (4 runs) are the baseline of machine kind 'Test CPU" b3.txt || fail "$(cat b3.txt)"
"$MEMPATH" history check runs/r25.json >l.txt 2>l.err
[ $? -eq 1 ] && grep -q 'read LOSS against runs 1 to 4 (4 runs)' l.err || fail "LOSS against a set: $(cat l.err)"
# run 30 ran t.p with size=2M: "run with other options", one summary line
"$MEMPATH" history check runs/r30.json >o.txt 2>o.err
grep -q '^note: t.p: ok in baseline, run 1, run with other options in n30' o.txt ||
	grep -q '^note: t.p: .*run with other options' o.txt || fail "other options not said: $(cat o.txt)"
[ "$(grep -c '^missing: ' o.txt)" -le 2 ] || fail "one line a missing metric: $(grep '^missing' o.txt)"
grep -q '^missing: 3 metrics of 1 probe (probe run with other options in ' o.txt || fail "summary: $(cat o.txt)"
expect_fail 2 "$MEMPATH" history check --changepoints runs/r10.json
expect_fail 2 "$MEMPATH" history list --changepoints
expect_fail 2 "$MEMPATH" history bless --stable t.p:rate0 3
exit 0
