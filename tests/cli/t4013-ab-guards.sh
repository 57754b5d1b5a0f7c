# ab refuses before the first setup what would spend every leg for nothing
# (too few samples, the leg's own -o or label, a directory holding an earlier
# ab's results or an unfinished restore); a hung setup or restore is stopped
# after --setup-timeout; a killed ab leaves a pending-restore record that the
# next ab refuses on and --restore-pending runs; each leg's file and the
# comparison say what made the leg (setup, environment).
# test: long (started first where no earlier run's times order the pool: tests/run.sh)
# test: waits (setup and restore commands that sleep past their timeouts: a lane beside the pool, tests/run.sh)
. "$top/tests/cli/lib.sh"
probe="probe cpu.first_touch size=16M touch=write pages=4k --warmups 0"
fast="wrap -n 6 -- true" # legs that run in a blink

# refused before anything runs: one error line, exit 2, no setup ran
for leg in "$probe --reps 5" "wrap -n 5 -- true" "$probe --reps 6 -o x.json" \
	"$probe --reps 6 --output=x.json" "$probe --reps 6 --label X" "wrap -l X -- true" \
	"run --suite quick --bogus" "doctor" "phantom -- true" "nosuch"; do
	expect_fail 2 "$MEMPATH" ab --legs ABA --a 'echo A >>ran' --b 'echo B >>ran' -o g1 -- $leg
	[ ! -e ran ] || fail "a setup ran for the refused leg command '$leg'"
done
expect_fail 2 "$MEMPATH" ab --legs ABA -o g1 -- $probe --reps 5
grep -q 'gives 5 sample(s) per metric; compare needs at least 6 per leg' err.txt ||
	fail "few samples message: $(cat err.txt)"
expect_fail 2 "$MEMPATH" ab --legs ABA -o g1 -- wrap -n 5 -- true
grep -q 'wrap -n 6' err.txt || fail "wrap hint: $(cat err.txt)"
expect_fail 2 "$MEMPATH" ab --legs ABA -o g1 -- wrap -l X -n 6 -- true
grep -q 'sets a label' err.txt || fail "label message: $(cat err.txt)"
# words after the wrapped command's -- are the workload's own
"$MEMPATH" ab --legs ABA -o g2 -- wrap -n 6 -- sh -c 'echo x -o y --label z >/dev/null' >out.txt 2>err.txt ||
	verdict_ok $? out.txt || fail "the workload's own -o was taken as the leg's: $(cat err.txt)"
grep -q '"workload"\|"argv"' g2/leg-1-A.json || fail "leg 1 missing"

# a directory holding an earlier ab's results is refused, and left as it was
cp g2/compare.json before.json
expect_fail 2 "$MEMPATH" ab --legs ABA -o g2 -- wrap -n 6 -- true
grep -q "holds results of an earlier ab" err.txt || fail "rerun message: $(cat err.txt)"
cmp -s before.json g2/compare.json || fail "the earlier comparison changed"

# a setup that ignores SIGTERM is stopped after the timeout (+5 s grace)
start=$(date +%s)
"$MEMPATH" ab --legs ABA --setup-timeout 1 --a 'echo A >state' --b 'trap "" TERM; echo B >state; sleep 60' \
	--restore 'echo restored >state' -o g3 -- $fast >out.txt 2>err.txt
rc=$?
took=$(($(date +%s) - start))
[ $rc -eq 1 ] || fail "hung setup: exit $rc: $(cat err.txt)"
[ $took -lt 40 ] || fail "hung setup took ${took}s"
grep -q 'setup of leg 2 (B, B) did not end within 1 s (stopped)' err.txt ||
	fail "timeout message: $(cat err.txt)"
[ "$(cat state)" = restored ] || fail "restore after a hung setup: $(cat state)"
[ ! -e g3/restore.pending ] || fail "pending record kept after a good restore"

# a hung restore is stopped too; its record stays, and the next ab refuses
"$MEMPATH" ab --legs ABA --setup-timeout 1 --a 'echo A >state' --b 'echo B >state' \
	--restore 'trap "" TERM INT; sleep 60' -o g4 -- $fast >out.txt 2>err.txt
rc=$?
[ $rc -eq 1 ] || fail "hung restore: exit $rc: $(cat err.txt)"
grep -q "restore command did not end within 1 s (stopped): the machine may not be as it was found" err.txt ||
	fail "restore timeout message: $(cat err.txt)"
[ -s g4/restore.pending ] || fail "no pending record after a failed restore"
grep -q 'sleep 60' g4/restore.pending || fail "pending record: $(cat g4/restore.pending)"

# SIGKILL of ab while B is set: the record stays; a new ab refuses; the
# restore-pending command puts A back and removes the record
rm -f state
spawn "$MEMPATH" ab --legs ABA --a 'echo A >state' --b 'echo B >state; touch b-set; exec sleep 60' \
	--a-env MP_X=1 -o g5 -- $fast >out.txt 2>err.txt
pid=$spawned
i=0
while [ ! -e b-set ] && [ $i -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
[ -e b-set ] || fail "setup B never ran"
kill -KILL $pid
wait $pid 2>/dev/null
[ "$(cat state)" = B ] || fail "state after kill -9: $(cat state)"
for p in $(left $pid); do kill -KILL "$p" 2>/dev/null; done
[ -s g5/restore.pending ] || fail "no pending restore after kill -9"
expect_fail 2 "$MEMPATH" ab --legs ABA --a 'echo A >state' --b 'echo B >state' -o g5 -- $fast
grep -q "ab --restore-pending g5" err.txt || fail "refusal does not say what to run: $(cat err.txt)"
[ "$(cat state)" = B ] || fail "the refused ab ran something"
"$MEMPATH" ab --restore-pending g5 >out.txt 2>err.txt || fail "restore-pending: $(cat err.txt)"
[ "$(cat state)" = A ] || fail "restore-pending did not restore: $(cat state)"
grep -q '^# env MP_X=1' g5/restore.log || fail "restore-pending lost A's environment"
[ ! -e g5/restore.pending ] || fail "record kept after restore-pending"
expect_fail 1 "$MEMPATH" ab --restore-pending g5
expect_fail 1 "$MEMPATH" ab --restore-pending nodir

# the variants' environments are recorded in each leg's file and the comparison
"$MEMPATH" ab --legs ABA --a true --b 'echo b' --a-env MP_V=one --b-env MP_V=two -o g6 -- $fast \
	>out.txt 2>err.txt || verdict_ok $? out.txt || fail "ab with envs: $(cat err.txt)"
python3 - g6 <<'PY' || fail "leg records"
import json, sys
d = sys.argv[1]
for n, var, val in ((1, "A", "one"), (2, "B", "two"), (3, "A", "one")):
    leg = json.load(open(f"{d}/leg-{n}-{var}.json"))["leg"]
    assert leg["variant"] == var and leg["env"] == {"MP_V": val}, leg
c = json.load(open(f"{d}/compare.json"))
assert [l["ab"]["env"]["MP_V"] for l in c["legs"]] == ["one", "two", "one"], c["legs"]
assert c["legs"][1]["ab"]["setup"] == "echo b"
PY
grep -q '^- leg 2, B (B): .*; setup: echo b; env: MP_V=two$' g6/compare.md || fail "compare.md: $(grep leg g6/compare.md)"
grep -q '^  leg 1, A: setup: true; env: MP_V=one$' out.txt || fail "table: $(head -5 out.txt)"
"$MEMPATH" report g6/compare.json --format html -o c.html || fail "html report"
grep -q 'setup: echo b; env: MP_V=two' c.html || fail "html lacks the leg's setup"
exit 0
