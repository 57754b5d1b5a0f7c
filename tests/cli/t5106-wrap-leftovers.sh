# wrap: what a run leaves running (a background job in its group, a daemon
# that called setsid and left it) is stopped after the run and named, so it
# cannot run on into the next run or outlive mempath; the file records it.
. "$top/tests/cli/lib.sh"
# sleeps of this test alone, beside any other test's; the tag keeps the
# argument one number ("sleep 300.1.2" is refused at once: the test then
# raced those exits, and lost whenever they came before wrap looked)
tag=$$$(date +%s)
"$MEMPATH" wrap -n 2 -o w.json -- sh -c "sleep 300.$tag & setsid sleep 301.$tag & echo m 1" \
	>out.txt 2>err.txt || fail "wrap exited $?: $(cat err.txt)"
[ "$(grep -c 'left 2 processes running (sleep, sleep): stopped$' err.txt)" -eq 2 ] ||
	fail "not said for both runs: $(cat err.txt)"
sleep 0.2
left=$(pgrep -f "sleep 30[01].$tag")
if [ -n "$left" ]; then
	kill -9 $left
	fail "left running after wrap: $left"
fi
python3 - <<'PY' || fail "the file does not record what was left"
import json
its = json.load(open("w.json"))["probes"][0]["extra"]["iterations"]
assert [i["left_running"]["processes"] for i in its] == [2, 2], its
PY
# a run that leaves nothing says nothing
"$MEMPATH" wrap -n 2 -o q.json -- sh -c 'echo m 1' >out.txt 2>err.txt || fail "plain wrap"
# (its own processes: a stale cgroup of a killed mempath that another test
# left, which this wrap may remove and say so, is not this run's)
grep -q 'left [0-9]* process' err.txt && fail "a clean run said it left something: $(cat err.txt)"
grep -q left_running q.json && fail "a clean run recorded leftovers"
exit 0
