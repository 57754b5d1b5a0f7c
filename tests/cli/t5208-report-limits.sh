# every report shows a bandwidth figure's share of its physical limit, from
# the facts the fingerprint records (tests/data/limits-run.json: four
# DDR5-4800 DIMMs, an H200's NVML bus width and memory clock, a Gen5 x16
# link; gpu.stream read 4652 GB/s, the figure measured on the H200 on
# 2026-12-01), in term, md, html and json; a fingerprint without the facts
# says why there is no limit.
# test: sanitizers (C paths the unit tests miss: tools/sanitize-pick.sh)
. "$top/tests/cli/lib.sh"
d=$top/tests/data
f=$d/limits-run.json

"$MEMPATH" report "$f" >r.txt || fail "term report"
grep -q 'limit: bandwidth kernel=read,access=default: 94.6% of 4916.7 GB/s (gpu0.hbm: 6144 bit x 3201 MHz x 2 (DDR) / 8)' r.txt ||
	fail "HBM share: $(grep limit: r.txt)"
grep -q 'limit: copy_bw mem=pinned,dir=h2d,size=256M: 87.9% of 63.0 GB/s (gpu0.pcie: 32 GT/s x16 x 128b/130b / 8' r.txt ||
	fail "PCIe share: $(grep limit: r.txt)"
grep -q 'limit: bandwidth kernel=read,threads=8,stores=none,pages=thp: 78.8% of 153.6 GB/s (dram: 4800 MT/s x 64 bit / 8 x 4 DIMMs' r.txt ||
	fail "DRAM share: $(grep limit: r.txt)"
"$MEMPATH" report "$f" --format md >r.md || fail "md report"
[ "$(grep -c '^- limit: .*% of ' r.md)" -eq 3 ] || fail "md limits: $(grep limit: r.md)"
"$MEMPATH" report "$f" --format html >r.html || fail "html report"
[ "$(grep -c '^<li>limit: .*% of ' r.html)" -eq 3 ] || fail "html limits: $(grep limit: r.html)"
grep -q "DIMM&#39;s configured speed" r.html || fail "html limit text not escaped"
"$MEMPATH" report "$f" --format json >r.json || fail "json report"
tr -d ' \n' <r.json | grep -Eq '"limit_key":"gpu0.hbm","share":\{"median":4652(\.0)?,"limit_gbps":4916\.(7|69+[0-9]*),"share_pct":94\.(6|59+[0-9]*)\}' ||
	fail "json share: $(grep -A8 limit_shares r.json)"
"$MEMPATH" report r.json >/dev/null || fail "the json report does not read back"

# a fingerprint without SMBIOS (a VM) and without GPU facts: unknown, with
# the reason
sed -n '/"probes"/,$p' "$f" >probes.part
{
	echo '{"schema": "mempath/run/1", "tool": {"name": "mempath", "version": "0.1.0"}, "argv": ["mempath"],'
	echo ' "label": null, "suite": null, "start_time": "2026-12-01T00:00:00Z", "interrupted": false,'
	echo ' "host": {"hostname": "vm", "dram": {"unknown": "no SMBIOS tables"}}, "knobs": {},'
	cat probes.part
} >nodimm.json
"$MEMPATH" report nodimm.json >n.txt || fail "report without DIMMs: $(cat n.txt)"
grep -q 'limit: bandwidth: limit (dram) unknown: no SMBIOS tables' n.txt ||
	fail "unknown DRAM limit: $(grep limit: n.txt)"
# a bidirectional copy moves both directions at once over a full-duplex link:
# its limit is twice one direction's, and no figure of the H200 run (pinned
# copies up to 100 GB/s both ways) reads past 100% of its limit
h=$top/docs/results/h200-2026-11-30.json
"$MEMPATH" report "$h" >h.txt || fail "report of the H200 run"
grep -q 'limit: copy_bw mem=pinned,dir=bidir,size=16M: [0-9.]*% of 126.0 GB/s (gpu0.pcie: .*, both directions at once: twice that)' h.txt ||
	fail "bidir limit: $(grep 'dir=bidir,' h.txt | grep limit: | head -2)"
grep -q 'limit: copy_bw mem=pinned,dir=bidir_h2d,size=16M: [0-9.]*% of 63.0 GB/s' h.txt ||
	fail "one direction of the pair: $(grep 'bidir_h2d' h.txt | grep limit: | head -1)"
over=$(sed -n 's/^ *limit: .*: \([0-9.]*\)% of .*/\1/p' h.txt | awk '$1 > 100')
[ -z "$over" ] || fail "shares past 100% of the limit: $over"
"$MEMPATH" report "$h" --format json -o h.json || fail "json report of the H200 run"
if command -v python3 >/dev/null 2>&1; then
	python3 -c '
import json, sys
s = [x for x in json.load(open("h.json"))["limit_shares"] if "share" in x]
over = [x for x in s if x["share"]["share_pct"] > 100]
bidir = [x for x in s if x["labels"].get("dir") == "bidir"]
assert bidir and all(x["share"]["limit_gbps"] == 126.0 for x in bidir), bidir[:1]
sys.exit(1 if over else 0)' || fail "json shares: past 100%, or the bidirectional limit not twice one direction's"
fi
exit 0
