# ab legs that differ by the wrapped command's own words: --a-args/--b-args go
# where the command has {} (through wrap --args), each leg's file and the
# comparison record them, wrap.args is expected to differ, and what they
# change in llama-bench's settings (use_mmap) is a knob to name like any other.
# test: alone (judges legs measured here, whose load a test beside it would change: tests/run.sh)
# test: sanitizers (C paths the unit tests miss: tools/sanitize-pick.sh)
. "$top/tests/cli/lib.sh"
fake="$top/tests/data/fake-llama-bench.sh"
"$MEMPATH" ab --legs ABABABAB --a-args '--mmap 1' --b-args '--mmap 0' --expect-diff llama.use_mmap -o mm \
	-- wrap -n 6 -- sh "$fake" {} -o json >ab.txt 2>ab.err || verdict_ok $? ab.txt || fail "ab exited: $(cat ab.err)"
tr -d ' \n' <mm/leg-1-A.json | grep -q '"leg":{.*"args":\["--mmap","1"\]' || fail "leg 1 args not recorded"
tr -d ' \n' <mm/leg-2-B.json | grep -q '"command":\["sh","[^"]*fake-llama-bench.sh","--mmap","0","-o","json"\]' ||
	fail "leg 2 did not run with its words"
grep -q '"llama.use_mmap": "1"' mm/leg-3-A.json || fail "leg 3 knob"
grep -q '"llama.use_mmap": "0"' mm/leg-2-B.json || fail "leg 2 knob"
grep -q 'leg 2, B: setup: none; args: --mmap 0' ab.txt || fail "comparison does not show the words: $(head ab.txt)"
grep -q 'args: --mmap 1' mm/compare.md || fail "compare.md does not show the words"
grep -q 'knob' ab.txt && fail "an expected knob refused: $(cat ab.txt)"
grep -q '^work.wrap tokens_per_s test=tg128 .* WIN' ab.txt || fail "no WIN for --mmap 0: $(cat ab.txt)"
# The legs' own tables, a column per leg, from the comparison file alone.
grep -q '^tg128 t/s  *tok/s ' ab.txt || fail "no per-leg throughput table: $(cat ab.txt)"
"$MEMPATH" report mm/compare.json >rep.txt 2>&1 || fail "report exited $?"
cmp -s ab.txt rep.txt || fail "report of compare.json differs from what ab printed: $(diff ab.txt rep.txt | head)"
# Without naming use_mmap: refused, the knob named (wrap.args stays expected).
"$MEMPATH" compare mm/leg-1-A.json mm/leg-2-B.json mm/leg-3-A.json --expect-diff wrap.args >c.txt 2>&1
grep -q 'knob llama.use_mmap: A=1, B=0, A again=1' c.txt || fail "use_mmap not named: $(head c.txt)"
grep -q 'no verdict: knobs differ' c.txt || fail "verdicts given: $(cat c.txt)"
# One side's words only: the other side's {} is removed, its args empty.
"$MEMPATH" ab --b-args '--mmap 0' --legs AB --expect-diff llama.use_mmap -o one \
	-- wrap -n 6 -- sh "$fake" {} -o json >one.txt 2>one.err || verdict_ok $? one.txt || fail "ab exited: $(cat one.err)"
tr -d ' \n' <one/leg-1-A.json | grep -q '"command":\["sh","[^"]*fake-llama-bench.sh","-o","json"\]' ||
	fail "A's {} not removed: $(tr -d ' \n' <one/leg-1-A.json | grep -o '"command":\[[^]]*\]')"
tr -d ' \n' <one/leg-1-A.json | grep -q '"leg":{.*"args":\[\]' || fail "A's empty args not recorded"
# Words go into a wrapped command only, and ab gives them: refused before any leg.
expect_fail 2 "$MEMPATH" ab --legs ABA --a-args x -o bad1 -- probe cpu.first_touch size=8M
grep -q "the leg must be 'wrap'" err.txt || fail "probe leg: $(cat err.txt)"
expect_fail 2 "$MEMPATH" ab --legs ABA --b-args x -o bad2 -- wrap -n 6 --args y -- true
grep -q 'sets --args' err.txt || fail "leg --args: $(cat err.txt)"
[ -e bad1/leg-1-A.json ] || [ -e bad2/leg-1-A.json ] && fail "a leg ran"
# a summary that is neither .json nor .csv is refused before any leg
expect_fail 2 "$MEMPATH" ab --legs ABA --a true --b true --export-summary s.txt -o sdir -- probe cpu.wake --reps 6
[ -e sdir ] && fail "a refused ab made its directory"
exit 0
