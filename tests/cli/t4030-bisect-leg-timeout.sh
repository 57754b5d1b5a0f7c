# bisect bounds every leg (docs/design.md §5.16): --help states the default
# leg timeout; a leg that sleeps past --leg-timeout is stopped and the step
# is a skip (exit 125, which git bisect run takes as "cannot test"), not a
# wait without bound (bisect ... -- wrap -- sh -c 'sleep 100' used to hang).
. "$top/tests/cli/lib.sh"
timeout 30 "$MEMPATH" bisect --help >help.txt || fail "bisect --help"
grep -q -- '--leg-timeout S' help.txt || fail "--help has no --leg-timeout"
grep -q 'default 3600' help.txt || fail "--help does not state the default leg timeout"
expect_fail 2 timeout 30 "$MEMPATH" bisect --leg-timeout 0 --good-args a --bad-args b -o b0 -- wrap -n 6 \
	--parse lines -- sh -c 'echo v 5'
"$MEMPATH" wrap -n 6 --parse lines -o ref.json -- sh -c 'echo v 5' >/dev/null 2>&1 || fail "wrap reference"
start=$(date +%s)
timeout 120 "$MEMPATH" bisect --good ref.json --bad ref.json --leg-timeout 2 -o b --step s1 -- \
	wrap -n 6 --parse lines -- sh -c 'sleep 100; echo v 5' >out.txt 2>err.txt
rc=$?
took=$(($(date +%s) - start))
[ $rc -ne 124 ] || fail "bisect waited on a leg that sleeps: killed at 120 s"
[ $rc -eq 125 ] || fail "bisect with a leg past its timeout: exit $rc, expected 125 (skip): $(tail -3 err.txt)"
[ $took -lt 60 ] || fail "bisect took $took s with a 2 s leg timeout"
grep -q 'did not end within 2 s' err.txt || fail "no timeout named: $(cat err.txt)"
# nothing of the leg lives on
[ -z "$(running_here 'sleep 100; echo v 5')" ] || fail "the leg's workload outlived bisect" # (this test's: another checkout's may be running)
