# cpu: the counters around every sample window (docs/design.md §4.17) - the
# probe's own page faults per window (software events), THP faults from
# vmstat and the mTHP stats, TLB shootdowns from /proc/interrupts, and
# tracepoint counts per window (a TLB flush counted where the interrupts saw
# shootdowns) in a mount namespace of the test's own with tracefs mounted there (nothing outside it is touched); sources that cannot
# be read say why (here: no PMU), never absent.
# test: sanitizers (C paths the unit tests miss: tools/sanitize-pick.sh)
. "$top/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 not installed (reads the results file)"
thp=$(sed -n 's/.*\[\(.*\)\].*/\1/p' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)
"$MEMPATH" probe cpu.first_touch size=64M pages=4k,thp touch=write --reps 2 --warmups 1 \
	--quiet -o ft.json >/dev/null 2>err.txt || fail "probe: $(cat err.txt)"
cat >check.py <<'PY'
import json, sys
thp, want_trace = sys.argv[1], sys.argv[2] == "trace"
p = json.load(open("ft.json"))["probes"][0]
src = {s["source"]: s for s in p["counter_sources"]}
assert sorted(src) == sorted(["vmstat", "mthp", "interrupts", "software", "tracepoints",
                              "hardware", "gpu", "cupti", "readings"]), src
assert src["gpu"]["why"] == "not a GPU probe", src["gpu"]
assert src["cupti"]["why"] == "not a GPU probe", src["cupti"]
assert src["readings"]["n"] > 0 and src["readings"]["mean_us"] > 0, src["readings"]
by = src["readings"]["by_source_us"]  # the mean by source: every source read has a share
assert by["vmstat"] > 0 and by["interrupts"] > 0 and sum(by.values()) <= src["readings"]["mean_us"] * 1.01, by
for s in src.values():
    assert (s["state"] == "ok") == ("why" not in s), s
hw = src["hardware"]
import os
pmu = [d for d in os.listdir("/sys/bus/event_source/devices") if d.startswith(("cpu", "armv"))]
if not pmu:  # no PMU exposed: it says so
    assert hw["state"] == "unavailable" and hw["why"].startswith("no PMU"), hw
def metric(name, pages):
    for m in p["metrics"]:
        if m["name"] == name and m["labels"].get("pages") == pages:
            return m
    raise SystemExit("no %s pages=%s" % (name, pages))
def moved(m, name):
    return m["counters"]["moved"].get(name, [0] * len(m["samples"]))
if src["software"]["state"] == "ok":
    pf = moved(metric("touch_rate", "4k"), "sw:page-faults")
    assert len(pf) == 2 and all(x >= 16384 for x in pf), pf  # 64 MiB of 4 KiB pages
    if thp in ("always", "madvise"):
        pf = moved(metric("touch_rate", "thp"), "sw:page-faults")
        assert all(x < 4096 for x in pf), pf  # 32 huge-page faults and a few
else:
    print("software:", src["software"]["why"])
if thp in ("always", "madvise"):
    m = metric("touch_rate", "thp")
    assert all(x >= 32 for x in moved(m, "vmstat:thp_fault_alloc")), m["counters"]
    if src["mthp"]["state"] == "ok":
        assert all(x >= 32 for x in moved(m, "mthp:2048kB:anon_fault_alloc")), m["counters"]
assert src["interrupts"]["state"] == "ok", src["interrupts"]
if want_trace:
    t = src["tracepoints"]
    assert t["state"] == "ok", t
    assert src["readings"]["by_source_us"].get("tracepoints", 0) > 0, src["readings"]
    tlb = [k for m in p["metrics"] for k in m["counters"]["moved"] if k.startswith("trace:tlb:")]
    # TLB shootdowns the interrupts saw in a window (irq:TLB) are flushes the
    # tracepoint counts; a window with none (a 16-CPU machine's, seen on the
    # H200 host) has nothing to count
    shot = [m["counters"]["moved"]["irq:TLB"] for m in p["metrics"] if "irq:TLB" in m["counters"]["moved"]]
    missing = t.get("missing", [])
    assert tlb or "tlb:tlb_flush" in missing or not shot, "shootdowns %s, no TLB flush counted: %s" % (
        shot, p["metrics"][0]["counters"])
else:
    t = src["tracepoints"]
    assert t["state"] == "ok" or t["why"], t
PY
python3 check.py "${thp:-none}" notrace || fail "counters of the probe's windows"
# MEMPATH_COUNTERS=off: none read, no sources
MEMPATH_COUNTERS=off "$MEMPATH" probe cpu.first_touch size=16M pages=4k touch=write --reps 1 \
	--warmups 0 --quiet -o off.json >/dev/null 2>err.txt || fail "probe, counters off: $(cat err.txt)"
! grep -q '"counter_sources"' off.json || fail "MEMPATH_COUNTERS=off read counters"
# tracepoints, counted for real where a private mount namespace may mount tracefs
command -v unshare >/dev/null 2>&1 || skip "no unshare: tracepoints not exercised (software events were)"
unshare -m sh -c 'mount -t tracefs nodev /sys/kernel/tracing' 2>/dev/null ||
	skip "cannot mount tracefs in a private mount namespace (not root?): tracepoints not exercised"
unshare -m sh -c 'mount -t tracefs nodev /sys/kernel/tracing &&
	exec "$0" probe cpu.first_touch size=64M pages=4k,thp touch=write --reps 2 --warmups 1 \
	--quiet -o ft.json' "$MEMPATH" >/dev/null 2>err.txt || fail "probe with tracefs: $(cat err.txt)"
python3 check.py "${thp:-none}" trace || fail "tracepoint counts of the probe's windows"
exit 0
