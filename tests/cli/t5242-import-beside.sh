# mempath import reads the reference tools' real outputs (tests/data/import/,
# its README says where each came from) into a results file of their own
# kind, a probe ref.TOOL each, the tool found from the file's marks; check
# --beside puts the tools' figures beside mempath's as the references of the
# paths that name them, with the ratio; compare TOOLS MINE (either order)
# puts each tool figure beside the metric it is the reference of, with the
# ratio and no verdict, in term, md and json, and refuses other formats and
# a tools' file none of whose figures name one of the run's metrics.
. "$top/tests/cli/lib.sh"
d=$top/tests/data/import

# what each file holds: one figure of each, read back from the results
figure() { # figure FILE PROBE METRIC LABELS: the median of that metric
	python3 - "$@" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
want = dict(kv.split("=", 1) for kv in sys.argv[4].split(",") if kv)
for p in run["probes"]:
    if p["name"] != sys.argv[2]:
        continue
    for m in p["metrics"]:
        if m["name"] == sys.argv[3] and m.get("labels", {}) == want:
            print("%.2f" % m["summary"]["median"])
PY
}
for f in nvbandwidth-h200x2.txt stream-h200.txt multichase-h200-local256.txt gpu-l2-cache-h200.txt \
	gpu-stream-h200.txt gpu-latency-h100.txt nvbandwidth-h200.json; do
	"$MEMPATH" import "$d/$f" -o "$f.json" 2>err.txt || fail "import $f: $(cat err.txt)"
done
[ "$(figure nvbandwidth-h200x2.txt.json ref.nvbandwidth bandwidth test=host_to_device_memcpy_ce,row=0,column=1)" = 55.54 ] ||
	fail "nvbandwidth text: $(figure nvbandwidth-h200x2.txt.json ref.nvbandwidth bandwidth test=host_to_device_memcpy_ce,row=0,column=1)"
[ "$(figure nvbandwidth-h200x2.txt.json ref.nvbandwidth bandwidth test=device_to_device_memcpy_read_ce,row=1,column=0)" = 393.60 ] ||
	fail "nvbandwidth's peer matrix (N/A on the diagonal)"
[ -z "$(figure nvbandwidth-h200x2.txt.json ref.nvbandwidth bandwidth test=device_to_device_memcpy_read_ce,row=0,column=0)" ] ||
	fail "an N/A cell read as a figure"
[ "$(figure nvbandwidth-h200.json.json ref.nvbandwidth bandwidth test=host_to_device_memcpy_ce,row=0,column=0)" = 55.47 ] ||
	fail "nvbandwidth JSON"
grep -q 'device_to_device_memcpy_read_ce' nvbandwidth-h200.json.json && fail "a waived test case read as figures"
[ "$(figure stream-h200.txt.json ref.stream bandwidth kernel=triad)" = 106.21 ] || fail "STREAM triad (MB/s / 1000)"
grep -q '"threads": "16"' stream-h200.txt.json || fail "STREAM's threads not recorded"
[ "$(figure multichase-h200-local256.txt.json ref.multichase latency '')" = 105.30 ] || fail "multichase"
[ "$(figure gpu-l2-cache-h200.txt.json ref.gpu-l2-cache bandwidth data_set=8192kB)" = 10251.90 ] || fail "gpu-l2-cache"
[ "$(figure gpu-stream-h200.txt.json ref.gpu-stream bandwidth kernel=init,block_size=1024)" = 3884.00 ] || fail "gpu-stream"
[ "$(figure gpu-latency-h100.txt.json ref.gpu-latency latency size=264kB)" = 117.30 ] || fail "gpu-latency (ms / iterations)"
"$MEMPATH" report gpu-stream-h200.txt.json >/dev/null || fail "an imported file does not read back"

# bad input: a file no tool wrote, an unknown --tool, nothing to read
printf 'hello\nworld\n' >junk.txt
expect_fail 2 "$MEMPATH" import junk.txt -o x.json
grep -q "is no output of a tool mempath reads" err.txt || fail "is no output of a tool mempath reads: $(cat err.txt)"
expect_fail 2 "$MEMPATH" import --tool lmbench junk.txt
grep -q "is not one of nvbandwidth" err.txt || fail "is not one of nvbandwidth: $(cat err.txt)"
expect_fail 2 "$MEMPATH" import --tool stream "$d/multichase-h200-local256.txt"
grep -q "no stream figures in it" err.txt || fail "no stream figures in it: $(cat err.txt)"
expect_fail 2 "$MEMPATH" import
grep -q "at least one tool's output" err.txt || fail "at least one tool's output: $(cat err.txt)"
[ -e x.json ] && fail "a refused import wrote its file"

# check --beside: nvbandwidth's 55.47 GB/s H2D as the reference of the H200
# kind's pinned H2D copy (a run at 512M: the fixture's 256M copies relabelled)
sed 's/"size": "256M"/"size": "512M"/' "$top/tests/data/limits-run.json" >run512.json
"$MEMPATH" check --beside nvbandwidth-h200.json.json run512.json >c.txt 2>err.txt
[ $? -le 1 ] || fail "check --beside: $(cat err.txt)"
grep -q '^PASS  PCIe 5 x16, pinned host to device, copy engine (mem=pinned,dir=h2d,size=512M): 55.4 GB/s, reference 55.5 GB/s' c.txt ||
	fail "the tool's figure as the reference: $(grep -A3 'host to device, copy' c.txt)"
grep -q '^      beside: nvbandwidth v0.8 -t host_to_device_memcpy_ce (512 MiB buffer) 55.5 beside mempath 55.4 (x0.99[0-9])$' c.txt ||
	fail "no ratio line: $(grep beside: c.txt)"
grep -q 'source: nvbandwidth-h200.json.json (nvbandwidth v0.8 -t host_to_device_memcpy_ce (512 MiB buffer), imported: 1 sample of ref.nvbandwidth bandwidth), beside this run' c.txt ||
	fail "the source does not name the imported file: $(grep source: c.txt | head -3)"
# without --beside the kind's own figure (55.3) stays
"$MEMPATH" check run512.json >own.txt
grep -q 'pinned host to device, copy engine (.*): 55.4 GB/s, reference 55.3 GB/s' own.txt || fail "the kind's reference: $(grep 'host to device' own.txt)"
expect_fail 2 "$MEMPATH" check --beside stream-h200.txt.json run512.json
grep -q "holds none of the tool figures" err.txt || fail "holds none of the tool figures: $(cat err.txt)"
# compare TOOLS MINE: the one row the references join, the ratio, no verdict
"$MEMPATH" compare nvbandwidth-h200.json.json run512.json >cmp.txt 2>err.txt || fail "compare tools mine exited $?: $(cat err.txt)"
grep -q '^gpu.copy copy_bw mem=pinned,dir=h2d,size=512M: nvbandwidth v0.8 -t host_to_device_memcpy_ce (512 MiB buffer) 55.5 GB/s (n=1), mempath 55.4 GB/s (n=3): x0.99[0-9]$' cmp.txt ||
	fail "compare: no row with the ratio: $(cat cmp.txt)"
[ "$(grep -c ': x[0-9]' cmp.txt)" -eq 1 ] || fail "compare: rows beyond the one the references join: $(cat cmp.txt)"
grep -q '^no verdict: ' cmp.txt || fail "compare: the table does not say it gives no verdict"
"$MEMPATH" compare run512.json nvbandwidth-h200.json.json >rev.txt || fail "compare mine tools exited $?"
cmp -s cmp.txt rev.txt || fail "either order gives the same table (tools first): $(diff cmp.txt rev.txt)"
grep -q "^compare: the tools' figures (nvbandwidth-h200.json.json) beside mempath's (run512.json)$" cmp.txt ||
	fail "compare: the head does not name the files: $(head -n 1 cmp.txt)"
"$MEMPATH" compare nvbandwidth-h200.json.json run512.json --format json -o cmp.json || fail "compare --format json"
python3 -c '
import json, sys
(r,) = json.load(open("cmp.json"))["beside"]
assert r["tool_median"] == 55.47 and abs(r["mempath_median"] - 55.4) < 0.05, r
assert abs(r["ratio"] - r["mempath_median"] / r["tool_median"]) < 1e-6, r
' || fail "compare --format json: $(cat cmp.json)"
"$MEMPATH" compare nvbandwidth-h200.json.json run512.json --format md | grep -q '^| gpu.copy copy_bw .* | x0.99[0-9] |$' ||
	fail "compare --format md: no row"
expect_fail 2 "$MEMPATH" compare nvbandwidth-h200.json.json run512.json --format csv
grep -q "written as term, md or json, not csv" err.txt || fail "csv: $(cat err.txt)"
expect_fail 2 "$MEMPATH" compare stream-h200.txt.json run512.json
grep -q "holds none of the tool figures the references name" err.txt || fail "no figure: $(cat err.txt)"
exit 0
