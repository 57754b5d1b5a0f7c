# gpu: gpu.sync's decode steps with a co-tenant on the fake backend: the
# co-tenant (mempath __cotenant, a process of its own) is started for each
# duty above 0 and block (the step loop alone, then beside it, per block),
# its achieved duty comes back over its pipe, each duty's step-time change
# has a CI and a change per block, and no co-tenant is left: not after a normal
# end, not after SIGKILL of mempath in the middle of a co-tenant run.
# test: waits (the fake co-tenant's periods and its exit: a lane beside the pool, tests/run.sh)
. "$top/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 not installed (reads the results file)"
command -v pgrep >/dev/null 2>&1 || skip "no pgrep"
fake=$(dirname "$MEMPATH")/mempath-fake
if "$MEMPATH" sysinfo --json 2>/dev/null | grep -q '"backend": *"fake"'; then
	fake=$MEMPATH
fi
[ -x "$fake" ] || skip "no $fake: make test-plain links it (not in the sanitizer pass)"

# bad input: one line, usage-like failure, no co-tenant
"$fake" probe gpu.sync weight_pct=1 duties=0,x --reps 3 -o bad.json >bad.txt 2>&1
grep -q "duties" bad.txt || fail "a bad duty list is not named: $(tail -n 3 bad.txt)"
"$fake" probe gpu.sync weight_pct=1 blocks=0 --reps 3 -o bad2.json >bad2.txt 2>&1
grep -q "blocks 1..16" bad2.txt || fail "blocks=0 is not named: $(tail -n 3 bad2.txt)"

spawn "$fake" probe gpu.sync weight_pct=1 duties=0,10,50 sched=spin,blocking launches=4 blocks=3 \
	--reps 4 --warmups 1 --window-ms 10 -o co.json
sid=$spawned
wait "$sid" || fail "gpu.sync with a co-tenant on the fake backend exited non-zero"
[ -z "$(left "$sid")" ] || fail "left after the probe's end: $(left "$sid" | tr '\n' ' ')"
python3 - <<'PY' || fail "the co-tenant results are wrong"
import json, os
(p,) = json.load(open("co.json"))["probes"]
assert p["status"] == "ok", (p["status"], p.get("reason"))
dec = p["extra"]["decode"]
for sched in ("spin", "blocking"):
    s = dec[sched]
    assert s["weight_bytes"] > 0 and s["alone"]["steps"] > 0, s
    assert s["alone"]["step_p99_us"] >= s["alone"]["step_median_us"] > 0, s["alone"]
    assert "0" not in s, "duty 0 ran a co-tenant: %s" % s
    for d in ("10", "50"):
        r = s[d]
        assert r["duty_asked_pct"] == int(d), r
        assert 0 < r["duty_achieved_pct"] <= 100, r
        assert r["ci_lo_pct"] <= r["step_change_pct"] <= r["ci_hi_pct"], r
        # three blocks of two samples (4 reps split, at least two a block)
        assert len(r["block_change_pct"]) == 3, r
        assert min(r["block_change_pct"]) - 1e-9 <= r["step_change_pct"] <= \
            max(r["block_change_pct"]) + 1e-9, r
        assert r["alone_median_us"] > 0, r
        assert r["cost"] in ("proportional (within 1.5x) or less",
                         "worse than proportional (over 1.5x)"), r
        # the co-tenant was a process of its own, and it is gone
        assert not os.path.exists("/proc/%d" % r["cotenant_pid"]) or \
            open("/proc/%d/cmdline" % r["cotenant_pid"]).read().find("__cotenant") < 0, r
names = {(m["name"], m["labels"].get("duty")) for m in p["metrics"]}
for d in ("0", "10", "50"):
    assert ("step_time", d) in names and ("step_bandwidth", d) in names, names
n = {(m["labels"]["sched"], m["labels"].get("duty")): len(m["samples"])
     for m in p["metrics"] if m["name"] == "step_time"}
assert n[("spin", "0")] == 4 and n[("spin", "10")] == 6 and n[("blocking", "50")] == 6, n
PY

# SIGKILL of mempath while a co-tenant runs: the death signals end the probe
# and its co-tenant
spawn "$fake" probe gpu.sync weight_pct=1 duties=50 sched=spin launches=4 --reps 30 \
	--window-ms 100 -o killed.json
sid=$spawned
i=0
while [ -z "$(left "$sid" __cotenant)" ]; do
	i=$((i + 1))
	[ $i -lt 1200 ] || { kill -9 "$sid"; fail "no co-tenant started in 60 s"; }
	kill -0 "$sid" 2>/dev/null || fail "the probe ended before its co-tenant started"
	sleep 0.05
done
kill -9 "$sid"
wait "$sid" 2>/dev/null
i=0
while [ -n "$(left "$sid")" ]; do
	i=$((i + 1))
	[ $i -lt 100 ] || fail "left 10 s after SIGKILL: $(left "$sid" | tr '\n' ' ')"
	sleep 0.1
done
exit 0
