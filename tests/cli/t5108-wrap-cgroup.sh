# wrap's counters say whose they are. Where runs get no cgroup of their own
# (this VM: cgroup v2 without the memory controller; or --no-cgroup), wrap
# says why once, records cgroup=none with the reason, and every vmstat row
# reads machine-wide; what the command held while it ran (smaps_rollup) is
# its own either way: a command that maps and touches 64 MiB shows it.
. "$top/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "no python3 to map memory with"
cat >hold.py <<'S'
import mmap, time
m = mmap.mmap(-1, 64 << 20, flags=mmap.MAP_PRIVATE)
for i in range(0, 64 << 20, 4096):
    m[i] = 1
time.sleep(0.6)
print("held_mib 64")
S
"$MEMPATH" wrap -n 1 --no-cgroup --sample-ms 100 -o w.json -- python3 hold.py >w.txt 2>w.err ||
	fail "wrap exited $?: $(cat w.err)"
grep -q 'no cgroup per run (--no-cgroup): counters are machine-wide only' w.err || fail "not said: $(cat w.err)"
grep -q '"cgroup": "none"' w.json || fail "cgroup param: $(grep '"cgroup"' w.json)"
grep -q '"unavailable": "--no-cgroup"' w.json || fail "reason not recorded"
grep -q '^no cgroup per run: --no-cgroup; only machine-wide counters' w.txt || fail "table does not say: $(cat w.txt)"
grep '^vmstat ' w.txt | grep -v '(machine-wide)' | grep -q . && fail "a vmstat row not labelled machine-wide"
grep -q '^Machine-wide vmstat deltas over the whole run' w.txt || fail "whole-run deltas not labelled"
# The 64 MiB it touched, sampled while it ran (Anonymous: at least 64 MiB).
awk '$1 == "smaps" && $2 == "Anonymous" && $3 == "(max)" && $5 >= 64 { ok = 1 } END { exit !ok }' w.txt ||
	fail "smaps not sampled: $(grep smaps w.txt)"
grep -q '"samples": [1-9]' w.json || fail "no sample count"
# GPU memory (NVML): read, or why not said once (no GPU here; a GPU=0 build)
if ! grep -q '"gpu_samples"' w.json; then
	grep -q '^GPU memory not read: ..' w.txt || fail "no GPU memory and no reason: $(cat w.txt)"
	grep -q '"gpu": {[^}]*"unavailable": "' w.json || tr -d '\n' <w.json | grep -q '"gpu": *{ *"unavailable": "' ||
		fail "GPU reason not recorded"
fi
# Without --no-cgroup: either runs get one (the readings are there) or wrap
# said why not.
"$MEMPATH" wrap -n 1 -o c.json -- python3 hold.py >c.txt 2>c.err || fail "wrap exited $?: $(cat c.err)"
if grep -q '"cgroup": "one per run"' c.json; then
	grep -q '^cgroup peak ' c.txt || fail "in a cgroup, no peak: $(cat c.txt)"
	awk '$1 == "cgroup" && $2 == "pgfault" && $4 > 0 { ok = 1 } END { exit !ok }' c.txt ||
		fail "in a cgroup, no faults counted: $(grep cgroup c.txt)"
else
	grep -q 'no cgroup per run (.*): counters are machine-wide only' c.err || fail "no reason: $(cat c.err)"
fi
exit 0
