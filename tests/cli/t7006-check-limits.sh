# check on a machine of no kind in data/: each path against its physical
# limit with data/limits.json's efficiency bands (tests/data/limits-run.json:
# an H200's facts under another name, so no reference kind matches; HBM read
# 4652 of 4916.7 GB/s = 94.6%, PCIe H2D 55.4 of 63.0 = 87.9%); a path that
# cannot be judged is INCONCLUSIVE with the reason and fails the check.
# test: sanitizers (C paths the unit tests miss: tools/sanitize-pick.sh)
. "$top/tests/cli/lib.sh"
sed 's/"NVIDIA H200"/"Other GPU"/' "$top/tests/data/limits-run.json" >run.json
"$MEMPATH" check run.json >out.txt
rc=$?
[ $rc -eq 1 ] || fail "exit $rc with paths not judged: $(cat out.txt)"
grep -q 'against any machine: each path against its physical limit' out.txt || fail "header: $(head -1 out.txt)"
grep -q '^PASS  HBM read, own SM kernel (kernel=read,access=default): 4652.0 GB/s, limit 4916.7 GB/s' out.txt ||
	fail "HBM band: $(grep -A3 HBM out.txt)"
grep -q 'limit: gpu0.hbm: 6144 bit x 3201 MHz x 2 (DDR) / 8; PASS at 90% of it or more, WARN at 80%' out.txt ||
	fail "HBM band's limit line: $(grep -A3 HBM out.txt)"
grep -q '^PASS  PCIe, pinned host to device' out.txt || fail "PCIe band: $(grep -A2 'host to device' out.txt)"
# measured nowhere in the file: INCONCLUSIVE with why, never a bare n/a
grep -q '^INCONCLUSIVE  PCIe, pinned device to host (.*): not judged' out.txt &&
	grep -q 'why: gpu.copy measured no copy_bw with these labels and parameters' out.txt ||
	fail "unmeasured path: $(grep -A3 'device to host' out.txt)"
# a known DRAM limit without a band, and a single GPU's absent peer path
grep -q 'why: no efficiency band for the dram limit in .*limits.json yet' out.txt || fail "DRAM: $(grep -A3 DRAM out.txt)"
grep -q 'NVLink' out.txt && fail "a one-GPU machine judged on NVLink"
grep -q ' n/a' out.txt && fail "n/a in the check: $(grep n/a out.txt)"
grep -qx '2 PASS, 0 WARN, 0 FAIL, 2 INCONCLUSIVE' out.txt || fail "counts: $(grep PASS, out.txt)"

# HBM at 79% of its limit: FAIL; at 85%: WARN
sed 's/4652.0, 4651.0, 4653.0/3884.0, 3884.0, 3884.0/' run.json >slow.json
"$MEMPATH" check slow.json >slow.txt
grep -q '^FAIL  HBM read' slow.txt || fail "79% not a FAIL: $(grep -A2 HBM slow.txt)"
sed 's/4652.0, 4651.0, 4653.0/4180.0, 4180.0, 4180.0/' run.json >warn.txt.json
"$MEMPATH" check warn.txt.json >warn.txt
grep -q '^WARN  HBM read' warn.txt || fail "85% not a WARN: $(grep -A2 HBM warn.txt)"
# json keeps the reason
"$MEMPATH" check run.json --format json >out.json
grep -q '"status": "INCONCLUSIVE"' out.json && grep -q '"reason": "gpu.copy measured no copy_bw' out.json ||
	fail "json reason: $(grep -B2 -A2 INCONCLUSIVE out.json | head)"
exit 0
