# verdict: legs whose samples saw other processes on the GPUs on one side
# only are left out as "measured under different load" - unless
# --expect-diff gpu_others says a co-tenant is the change (gpu.sync's study
# of a co-tenant a B setup starts, docs/design.md §10.5); gpu_others is
# taken though it is no knob of the files.
. "$top/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 not installed (edits the results files)"
for i in 1 2 3 4 5 6; do
	"$MEMPATH" probe cpu.first_touch size=4M pages=4k --reps 6 --warmups 0 -o r$i.json \
		>/dev/null 2>&1 || fail "probe run $i failed"
done
# B legs (2, 4, 6): one other process on the GPUs in every sample, and a
# touch 30% slower (the samples made steady); busy and wait made equal so only the GPU differs
python3 - <<'PY' || fail "could not edit the files"
import json
for i in range(1, 7):
    d = json.load(open("r%d.json" % i))
    for p in d["probes"]:
        for m in p["metrics"]:
            n = len(m["samples"])
            m["busy"], m["wait"] = [0.0] * n, [0.0] * n
            m["gpu_others"] = [1.0 if i % 2 == 0 else 0.0] * n
            if m["name"] == "touch_rate":  # steady, whatever the machine did
                base = [1.0, 1.01, 0.99, 1.02, 0.98, 1.0][:n]
                m["samples"] = [v * (0.7 if i % 2 == 0 else 1.0) for v in base]
    json.dump(d, open("r%d.json" % i, "w"))
PY
"$MEMPATH" compare --rounds --allow-diff r1.json r2.json r3.json r4.json r5.json r6.json >plain.txt 2>&1
grep "touch_rate" plain.txt | grep -q "other process on the GPUs" ||
	fail "a GPU process on one side did not leave the rounds out: $(grep touch_rate plain.txt)"
"$MEMPATH" compare --rounds --allow-diff --expect-diff gpu_others r1.json r2.json r3.json r4.json r5.json \
	r6.json >co.txt 2>&1 || fail "compare --expect-diff gpu_others failed: $(tail -n 3 co.txt)"
grep "touch_rate" co.txt | grep -q "other process on the GPUs" &&
	fail "--expect-diff gpu_others still left rounds out: $(grep touch_rate co.txt)"
grep "touch_rate" co.txt | grep -q "LOSS" || fail "the 30% slower touch is not a LOSS: $(grep touch_rate co.txt)"
exit 0
