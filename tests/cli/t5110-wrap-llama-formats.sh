# wrap reads llama-bench's output in every format it writes (replayed from the
# real binary's, tests/data/llama/): the same tests, labelled by the column
# that differs (mmap 0 / mmap 1, as llama-bench's own table says), its
# settings kept as llama.* knobs; Markdown, its default, needs no -o.
. "$top/tests/cli/lib.sh"
replay="$top/tests/data/llama-replay.sh"
for fmt in md csv json jsonl sql default; do
	o="-o $fmt"
	[ $fmt = default ] && o=""
	# shellcheck disable=SC2086
	"$MEMPATH" wrap -n 1 -o $fmt.json -- sh "$replay" $o >$fmt.txt 2>$fmt.err ||
		fail "$fmt: wrap exited $?: $(cat $fmt.err)"
	grep -q "4 tests (llama-bench -o $([ $fmt = default ] && echo md || echo $fmt))" $fmt.err ||
		fail "$fmt: progress: $(cat $fmt.err)"
	grep 'warning' $fmt.err | grep -qv 'the machine is busy' && fail "$fmt: warned: $(cat $fmt.err)"
	grep -q '^tokens_per_s test=pp16,mmap=0 ' $fmt.txt || fail "$fmt: no pp16 mmap=0 row: $(cat $fmt.txt)"
	grep -q '^tokens_per_s test=tg4,mmap=1 ' $fmt.txt || fail "$fmt: no tg4 mmap=1 row"
	grep -q 'config=' $fmt.txt && fail "$fmt: configurations numbered, not named"
	grep -q '^metric  *unit  *mmap=0  *mmap=1$' $fmt.txt || fail "$fmt: no column per configuration: $(head -20 $fmt.txt)"
	tr -d ' \n' <$fmt.json | grep -q '"llama.build_commit":"c392e509"' || fail "$fmt: build_commit knob"
	tr -d ' \n' <$fmt.json | grep -q '"llama.use_mmap":"0,1"' || fail "$fmt: use_mmap knob"
done
# The numbers are the file's: pp16 at mmap 0 in the CSV and the SQL.
grep -q '^pp16 t/s  *tok/s  *5.299  *3.516$' csv.txt || fail "csv pp16: $(grep 'pp16 t/s' csv.txt)"
grep -q '^pp16 t/s  *tok/s  *24.72  *2.811$' sql.txt || fail "sql pp16: $(grep 'pp16 t/s' sql.txt)"
grep -q '^tg4 t/s  *tok/s  *1.04  *0.27$' md.txt || fail "md tg4: $(grep 'tg4 t/s' md.txt)"
grep '^tokens_per_s ' md.txt | awk '{print $1, $2, $3, $4}' >md.rows
grep '^tokens_per_s ' default.txt | awk '{print $1, $2, $3, $4}' >default.rows
cmp -s md.rows default.rows || fail "the default output read differently from -o md"
# ms/token where the format has avg_ns: 3845295765 ns / 4 tokens in the JSON
grep -q '^tg4 ms/token  *ms  *961.3 ' json.txt || fail "json ms/token: $(grep ms/token json.txt)"
grep -q 'ms/token' md.txt && fail "md has no avg_ns, yet a ms/token row"
# Every repetition a sample (not judged); the load estimate from samples_ns.
tr -d ' \n' <json.json | grep -q '"name":"tokens_per_s_rep","unit":"tok/s","better":"none"' ||
	fail "repetitions not kept"
# The replay took no 37 s: a wall time under the timed repetitions is no
# estimate (never negative); one that sleeps 0.2 s around 2 us of them is.
grep -q '^load_time_est ' json.txt && fail "a negative load estimate was kept"
grep -q '^load_time_est ' sql.txt && fail "a load estimate without samples_ns"
echo '{"n_prompt": 0, "n_gen": 4, "avg_ts": 4e6, "avg_ns": 1000, "samples_ns": [1000, 1000], "samples_ts": [4e6, 4e6]}' >t.jsonl
"$MEMPATH" wrap -n 1 -q -o t.json -- sh -c 'sleep 0.2; cat t.jsonl' >t.txt 2>t.err || fail "exit $?: $(cat t.err)"
awk '$1 == "load_time_est" { found = 1; if ($3 < 0.19) bad = 1 } END { exit !(found && !bad) }' t.txt ||
	fail "load estimate: $(grep load_time_est t.txt)"
# Output that looks like llama-bench's and gives no test is named, with the flag.
printf '| model | size | test | t/s |\n|---|---|---|---|\n' >half.md
"$MEMPATH" wrap -n 1 -q -o half.json -- cat half.md >half.txt 2>half.err || fail "exit $? on an empty table"
grep -q 'no llama-bench results read from run 1.*-o json' half.err || fail "not named: $(cat half.err)"
exit 0
