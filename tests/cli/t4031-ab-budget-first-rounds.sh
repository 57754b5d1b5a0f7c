# ab --rounds auto --budget bounds the first rounds too (docs/design.md
# §5.13): before the first setup ab says that every leg is bounded by the
# budget and runs a pilot of the leg command (1 and 2 samples a metric, or
# wrap's runs, no setup; with --reps auto the estimate is the least a leg
# takes); a plan whose first rounds cannot fit it (100000 first touches a
# leg) is refused there, with one error line naming the budget, and no
# setup or leg runs. It used to run past 60 s, then to stop at the first
# leg.
. "$top/tests/cli/lib.sh"
start=$(date +%s)
timeout 120 "$MEMPATH" ab --rounds auto --budget 10 --a 'echo a >>setups' --b 'echo b >>setups' -o d -- \
	probe cpu.first_touch size=2M --reps 100000 >out.txt 2>err.txt
rc=$?
took=$(($(date +%s) - start))
[ $rc -ne 124 ] || fail "ab ran past 120 s with --budget 10"
[ $rc -eq 1 ] || fail "ab with a plan past its budget: exit $rc, expected 1: $(tail -3 err.txt)"
# two pilots, each bounded by a leg's share (1.25 s); a busy machine may add
# a few seconds
[ $took -le 20 ] || fail "ab took $took s with --budget 10"
grep -q '^ab: --budget 10 s bounds every leg: the first 4 rounds (8 legs)' err.txt ||
	fail "no word of the budget before the pilot: $(head -5 err.txt)"
grep -q "^mempath: error: the .* (a pilot, before the first setup) .*--budget of 10 s.*: refused\|^mempath: error: the first 8 legs a verdict needs would take about [0-9]* s (a pilot before the first setup: .*past the --budget of 10 s .*: refused" err.txt ||
	fail "no error naming the budget and the pilot: $(cat err.txt)"
[ ! -e setups ] || fail "a setup ran for a plan refused: $(cat setups)"
! ls d/leg-* >/dev/null 2>&1 || fail "a leg ran for a plan refused: $(ls d)"
[ -e d/pilot-1.json ] || fail "the pilot's results are not kept: $(ls d)"
[ ! -e d/restore.pending ] || fail "a restore is pending though no setup ran"
# legs that fit a pilot's estimate but at a pace the first 4 rounds cannot
# keep: refused by the pilot, or (a pilot that ran fast) stopped once a leg
# shows it, or at the budget
rm -rf d setups
start=$(date +%s)
timeout 120 "$MEMPATH" ab --rounds auto --budget 2 --a true --b true -o d -- \
	probe cpu.wake --reps 24 >out.txt 2>err.txt
rc=$?
took=$(($(date +%s) - start))
[ $rc -eq 1 ] || fail "ab with legs past a 2 s budget: exit $rc: $(tail -3 err.txt)"
[ $took -le 30 ] || fail "ab took $took s with --budget 2"
if grep -q '^mempath: error: the first 8 legs a verdict needs would take about [0-9]* s (a pilot before the first setup' err.txt ||
	grep -q '^mempath: error: the leg command with [12] samples\{0,1\} a metric (a pilot, before the first setup) did not end within .*--budget of 2 s.*: refused' err.txt; then
	! ls d/leg-*.json >/dev/null 2>&1 || fail "legs ran after the pilot refused the plan: $(ls d)"
elif grep -q '^mempath: error: the first 8 legs a verdict needs would take about [0-9]* s at this pace ([0-9]* took [0-9]* s), past the --budget of 2 s: stopped' err.txt; then
	[ "$(ls d/leg-*.json | wc -l)" -lt 8 ] || fail "the pace was judged after the first rounds: $(ls d)"
else
	grep -q 'stopped at the --budget of 2 s' err.txt || fail "no error naming the budget: $(cat err.txt)"
fi
# a budget that fits: the pilot says so and the legs run (exit 3: no
# trusted verdict, e.g. a knob another process changed between the legs)
rm -rf d
"$MEMPATH" ab --rounds auto --budget 300 --max-rounds 4 --a true --b true -o d -- \
	probe cpu.wake --reps 12 >out.txt 2>err.txt
rc=$?
[ $rc -eq 0 ] || [ $rc -eq 3 ] || fail "ab within a 300 s budget: exit $rc: $(tail -3 err.txt)"
grep -q '^ab: --budget: a pilot (.* s with 1 sample a metric, .* s with 2) puts the first 8 legs at about [0-9]* s of the [0-9]* s left' err.txt ||
	fail "no word of the pilot's estimate: $(grep budget err.txt)"
[ -e d/compare.json ] || fail "no comparison after a plan that fit: $(ls d)"
# wrap legs: the pilot sets wrap's runs (-n 1, -n 2) after the leg's own
# options and before its workload, and refuses a plan whose 8 first legs of
# 8 runs of a 0.3 s workload cannot fit 10 s; no setup runs
rm -rf d setups
timeout 120 "$MEMPATH" ab --rounds auto --budget 10 --a 'echo a >>setups' --b 'echo b >>setups' -o d -- \
	wrap -n 8 -- sleep 0.3 >out.txt 2>err.txt
rc=$?
[ $rc -eq 1 ] || fail "ab of wrap legs past the budget: exit $rc: $(tail -3 err.txt)"
grep -q "^mempath: error: the first 8 legs a verdict needs would take about [0-9]* s (a pilot before the first setup: [0-9.]* s with 1 run, [0-9.]* s with 2; a leg of 8 about .*past the --budget of 10 s.*: refused (give a larger --budget, or fewer runs (-n))\|^mempath: error: the leg command with [12] .*(a pilot, before the first setup) did not end within .*--budget of 10 s.*: refused" err.txt ||
	fail "wrap legs: no error naming the pilot and the budget: $(cat err.txt)"
[ ! -e setups ] || fail "a setup ran for a wrap plan refused: $(cat setups)"
! ls d/leg-* >/dev/null 2>&1 || fail "a wrap leg ran for a plan refused: $(ls d)"
python3 - <<'PY' || fail "the wrap pilot did not run the workload once, as itself: $(cat d/pilot-1.log)"
import json
d = json.load(open("d/pilot-1.json"))
(p,) = d["probes"]
n = {m["summary"]["n"] for m in p["metrics"] if m["name"] == "wall_time"}
assert n == {1}, "counted runs %s" % n
PY
# --reps auto legs: the pilot runs too (its count after the leg's own
# --reps auto), and the estimate is the least a leg samples (10 a metric):
# cpu.wake's 3 metrics cannot fit 8 legs in 8 s (a pilot on the quiet dev
# VM: 0.47 s with 1 sample a metric, 0.56 s with 2, so 8 legs of 10 at
# least 10 s; with 12 s, of which the pilot left 11, they fitted)
rm -rf d setups
timeout 120 "$MEMPATH" ab --rounds auto --budget 8 --a 'echo a >>setups' --b 'echo b >>setups' -o d -- \
	probe cpu.wake --reps auto --window-ms 100 --warmups 0 >out.txt 2>err.txt
rc=$?
[ $rc -eq 1 ] || fail "ab of --reps auto legs past the budget: exit $rc: $(tail -3 err.txt)"
# (beside another make test a pilot of 1 sample took 0.54 s and one of 2
# 0.28 s: its estimate fitted, and the first leg was stopped at the budget,
# the one leg it ran)
if grep -q "^mempath: error: the first 8 legs a verdict needs would take at least [0-9]* s (a pilot before the first setup: .*a leg of 10 (--reps auto's least).*: refused\|^mempath: error: the leg command with [12] samples\{0,1\} a metric (a pilot, before the first setup) did not end within .*--budget of 8 s.*: refused" err.txt; then
	[ ! -e setups ] || fail "a setup ran for an auto plan refused: $(cat setups)"
elif grep -q "^mempath: error: leg 1 (A, A) stopped at the --budget of 8 s" err.txt; then
	# the first leg's setup, and A's again as the restore
	[ -z "$(grep -v '^a$' setups)" ] || fail "a setup past the first leg's ran: $(cat setups)"
	grep -q '^ab: --budget: a pilot (.* s with 1 sample a metric, .* s with 2) puts the first 8 legs at [0-9]* s or more' err.txt ||
		fail "--reps auto legs: no word of the pilot's estimate: $(cat err.txt)"
else
	fail "--reps auto legs: no error naming the pilot and the budget: $(cat err.txt)"
fi
[ -e d/pilot-1.json ] || fail "no pilot for --reps auto legs: $(ls d)"
python3 -c '
import json
a = json.load(open("d/pilot-1.json"))["argv"]
assert a[-2:] == ["--reps", "1"] and "auto" in a, a
' || fail "the pilot's count does not come after the leg's own --reps auto"
