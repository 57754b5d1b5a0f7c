# The smallest backend (tests/gpu_discovery/: the GPUs and accelerators on
# the PCI bus, the entries every backend must write and no more) linked as
# BUILD/mempath-discovery: it stays under 80 lines; sysinfo lists the device
# of a test's sysfs tree (a bridge beside it is not one); every probe of the
# gpu and p2p suites is recorded as skipped, saying the backend discovers
# devices only and which entries it lacks; phantom --gpu skips with the same
# reason; with no device on the bus, that is the reason instead.
. "$top/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 not installed (reads the results files)"
disc=$(dirname "$MEMPATH")/mempath-discovery
[ -x "$disc" ] || skip "no $disc: make test-plain links it (not in the sanitizer pass)"
n=$(cat "$top"/tests/gpu_discovery/* | wc -l)
[ "$n" -lt 80 ] || fail "tests/gpu_discovery/ has $n lines: the smallest backend is under 80"
dev=pci/0000:18:00.0
mkdir -p "$dev" pci/0000:00:01.0 empty
echo 0x030200 >"$dev/class"
echo 0x10de >"$dev/vendor"
echo 0x2335 >"$dev/device"
echo 1 >"$dev/numa_node"
echo 0x060400 >pci/0000:00:01.0/class
MEMPATH_TEST_PCI_ROOT=$PWD/pci
export MEMPATH_TEST_PCI_ROOT
"$disc" sysinfo --json >si.json || fail "sysinfo exited $?"
for s in gpu p2p; do
	"$disc" run --suite $s --quiet -o $s.json >$s.txt 2>&1 || fail "run --suite $s exited $?: $(tail -n 3 $s.txt)"
done
"$disc" phantom --gpu 16M -o ph.json >ph.txt 2>&1 || fail "phantom --gpu exited $?: $(tail -n 3 ph.txt)"
MEMPATH_TEST_PCI_ROOT=$PWD/empty "$disc" probe gpu.stream -o none.json >none.txt 2>&1 ||
	fail "probe with no device exited $?: $(tail -n 3 none.txt)"
python3 - <<'PY' || fail "the discovery backend's results: see above"
import json
si = json.load(open("si.json"))
(d,) = si["gpu"]["devices"]
assert d["name"] == "PCI device 10de:2335" and d["backend"] == "PCI", d
assert d["pci_bus_id"] == "0000:18:00.0" and d["host_numa_node"] == 1, d
assert "sm_count" not in d and "mem_bytes" not in d, "unknown facts written: %s" % d
only = "the PCI backend discovers devices only: it has no malloc, free, memcpy, stream_create"
n = 0
for s in ("gpu", "p2p", "ph"):
    for p in json.load(open(s + ".json"))["probes"]:
        assert p["status"] == "skip", "%s: %s %s" % (p["name"], p["status"], p.get("reason"))
        assert p["reason"].startswith(only), "%s: %s" % (p["name"], p["reason"])
        n += 1
assert n >= 12, "only %d probes" % n
(p,) = json.load(open("none.json"))["probes"]
assert p["status"] == "skip" and p["reason"] == "no GPU or accelerator on the PCI bus", p
PY
exit 0
