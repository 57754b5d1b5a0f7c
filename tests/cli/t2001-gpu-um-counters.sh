# gpu: CUPTI's unified-memory counters around the sample windows of
# gpu.first_touch and gpu.host_latency on managed memory (docs/design.md
# §4.20): the GPU-first touch faults on the GPU in every window, the GPU read
# after a CPU touch migrates the buffer host -> device (0.5-1.5x its bytes),
# the chase's first pass over a chain the CPU wrote faults and migrates, and
# the chase after migration (and the prefetch, where the device has
# concurrent managed access) faults no more. The counts of each metric are
# printed. Skipped without a GPU; where libcupti cannot be found the source
# says so and the test skips with that reason; any other CUPTI refusal fails
# with CUPTI's own words.
. "$top/tests/cli/lib.sh"
"$MEMPATH" sysinfo --json | grep -q '"devices"' || skip "no GPU here (sysinfo lists no device)"
command -v python3 >/dev/null 2>&1 || skip "python3 not installed (reads the results files)"
"$MEMPATH" probe gpu.first_touch variants=managed size=1G --reps 3 --warmups 1 --quiet \
	-o ft.json >ft.txt 2>&1 || fail "gpu.first_touch: $(cat ft.txt)"
"$MEMPATH" probe gpu.host_latency memory=managed orders=stride size=16M --reps 3 --quiet \
	-o hl.json >hl.txt 2>&1 || fail "gpu.host_latency: $(cat hl.txt)"
cat >check.py <<'PY'
import json, sys

def probe(path):
    p = json.load(open(path))["probes"][0]
    assert p["status"] == "ok", (p["name"], p["status"], p.get("reason"))
    src = {s["source"]: s for s in p["counter_sources"]}
    c = src["cupti"]
    if c["state"] != "ok":
        if c["why"].startswith("no libcupti"):
            print("SKIP", c["why"])
            sys.exit(77)
        raise SystemExit("cupti unavailable: %s" % c["why"])
    return p

def metric(p, name, **labels):
    for m in p["metrics"]:
        if m["name"] == name and all(m["labels"].get(k) == v for k, v in labels.items()):
            return m
    raise SystemExit("no %s %s" % (name, labels))

def counts(m, name):
    c = m.get("counters") or {}
    un = set(c.get("unmarked", []))
    v = c.get("moved", {}).get("cupti:" + name, [0] * len(m["samples"]))
    return [x for i, x in enumerate(v) if i not in un and x is not None]

def show(p):
    for m in p["metrics"]:
        moved = (m.get("counters") or {}).get("moved", {})
        cu = {k: v for k, v in moved.items() if k.startswith("cupti:")}
        if cu:
            print(p["name"], m["name"], m["labels"], cu)

ft, hl = probe("ft.json"), probe("hl.json")
show(ft)
show(hl)
size = 1 << 30
gf = counts(metric(ft, "first_touch", touch="gpu", prefetch="no"), "gpu_page_faults")
assert len(gf) == 3 and all(x > 0 for x in gf), "GPU-first touch without GPU faults: %s" % gf
h = counts(metric(ft, "gpu_read", touch="cpu", prefetch="no"), "htod_bytes")
assert len(h) == 3 and all(0.5 * size <= x <= 1.5 * size for x in h), \
    "GPU read after a CPU touch migrated %s bytes, not about %d" % (h, size)
first = metric(hl, "first_pass_latency", memory="managed")
assert counts(first, "gpu_page_faults") and all(x > 0 for x in counts(first, "gpu_page_faults")), \
    "first pass without GPU faults: %s" % first.get("counters")
assert all(x > 0 for x in counts(first, "htod_bytes")), "first pass migrated nothing"
if hl["params"].get("concurrent_managed_access") == "1":
    after = counts(metric(hl, "latency", memory="managed"), "gpu_page_faults")
    assert len(after) == 3 and all(x == 0 for x in after), \
        "the chase after migration still faults: %s" % after
print("cpu_touch cpu_page_faults:", counts(metric(ft, "cpu_touch", touch="cpu"), "cpu_page_faults"))
PY
python3 check.py >check.txt 2>&1
rc=$?
cat check.txt
[ $rc -eq 77 ] && skip "$(sed -n 's/^SKIP //p' check.txt)"
[ $rc -eq 0 ] || fail "unified-memory counters: $(tail -n 3 check.txt)"
exit 0
