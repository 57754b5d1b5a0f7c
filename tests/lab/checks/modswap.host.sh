# The module-swap A/B/A's host half: every leg ran after its swap (the
# setups' logs hold the mbps each loaded module reports: 0 for stock, 20 for
# patched), and the comparison of the three rounds was written: the
# workload's time longer under the capped module (at least 1.6 s for 32 MiB
# at 20 MiB/s) in every round.
set -u
. "$(dirname "$0")/lib.host.sh"
rc=$(cat plan.rc)
case $rc in 0 | 3) ;; *) fail "plan exited $rc: $(tail -n 5 plan.err)" ;; esac
for n in 1 4 5; do grep -qx 0 "plan/leg-$n-setup.log" || fail "leg $n (stock) did not load the stock module"; done
for n in 2 3 6; do grep -qx 20 "plan/leg-$n-setup.log" || fail "leg $n (patched) did not load the patched module"; done
[ -s plan/compare.json ] || fail "no comparison"
grep -q '"rounds": 3' plan/compare.json || fail "not a comparison of three rounds"
for n in 2 3 6; do
	t=$(jq -r '.probes[].metrics[] | select(.name == "wall_time") | .summary.median' plan/leg-$n-r*-patched.json 2>/dev/null)
	[ -z "$t" ] || awk -v t="$t" 'BEGIN { exit !(t >= 1.6) }' || fail "leg $n (patched): $t s for 32 MiB, not capped at 20 MiB/s"
done
echo "note: $(grep -c '"state": "done"' plan/plan.journal) legs, plan exit $rc"
exit 0
