# wrap: a fake llama-bench (JSON, then JSONL) run after a warm-up; the
# per-iteration table shows tg128 converging; the results file holds one
# sample per counted run and the warm-up apart, and the strict reader takes it.
# test: sanitizers (C paths the unit tests miss: tools/sanitize-pick.sh)
. "$top/tests/cli/lib.sh"
fake="$top/tests/data/fake-llama-bench.sh"
"$MEMPATH" wrap -n 3 --warmup 1 --label conv -o w.json -- sh "$fake" -o json >w.txt 2>w.err ||
	fail "wrap exited $?: $(cat w.err)"
grep -q '^metric  *unit  *w1  *iter1  *iter2  *iter3  *median  *CoV%$' w.txt || fail "header: $(head -n 1 w.txt)"
grep -q '^tokens_per_s test=tg128  *tok/s  *4.2  *4.5  *4.6  *4.65  *4.6 ' w.txt ||
	fail "tg128 convergence row: $(grep tg128 w.txt)"
grep -q '^tokens_per_s test=pp512  *tok/s  *69.31 ' w.txt || fail "pp512 row"
grep -q '^exit_status  *0  *0  *0  *0 ' w.txt || fail "exit status row: $(grep exit_status w.txt)"
grep -q 'wrap: run 3: exit 0 .* 2 tests (llama-bench -o json)' w.err || fail "progress: $(cat w.err)"
"$MEMPATH" report w.json --format csv >w.csv || fail "results file rejected"
grep -q '^work.wrap,ok,tokens_per_s,test=tg128,tok/s,higher,3,4.6,' w.csv || fail "tg128 metric: $(cat w.csv)"
grep -q '^work.wrap,ok,wall_time,,s,lower,3,' w.csv || fail "wall_time metric"
grep -q '"label": "conv"' w.json || fail "label not recorded"
grep -q '"command": "sh .*fake-llama-bench.sh -o json"' w.json || fail "command param"
grep -q '"stderr_tail"' w.json && fail "stderr tail kept for runs that succeeded"
tr -d ' \n' <w.json | grep -q '"name":"tokens_per_s","unit":"tok/s".*"test":"tg128"},"samples":\[4.5[0-9]*,4.[56][0-9]*,4.6[45][0-9]*\],"warmups":\[4.2[0-9]*\]' ||
	fail "samples/warm-ups of tg128 not as run"
grep -q '"MemAvailable"' w.json || fail "meminfo before/after missing"
grep -q '"numastat_delta"' w.json || fail "numastat deltas missing"
# JSONL, forced parser.
rm -f fake-llama-bench.count
"$MEMPATH" wrap -n 2 --parse llama-bench -q -o l.json -- sh "$fake" -o jsonl >l.txt 2>l.err ||
	fail "jsonl wrap exited $?: $(cat l.err)"
grep -q '^tokens_per_s test=tg128  *tok/s  *4.2  *4.5 ' l.txt || fail "jsonl rows: $(cat l.txt)"
# Told llama-bench but the output is lines: a warning, rusage still recorded.
"$MEMPATH" wrap -n 1 --parse llama-bench -q -o x.json -- sh "$top/tests/data/fake-lines.sh" >x.txt 2>x.err ||
	fail "exit $? on unparsed output"
grep -q "warning: no llama-bench results read from run 1.s stdout: give llama-bench -o json" x.err || fail "no warning: $(cat x.err)"
grep -q '^bandwidth' x.txt && fail "lines parsed although llama-bench was forced"
exit 0
