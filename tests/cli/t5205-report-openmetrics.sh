# reports: 'report --format openmetrics' of a run, a comparison and a fleet is read
# by a real OpenMetrics parser (python3-prometheus-client) and by the
# Prometheus text parser that node_exporter's textfile collector uses: one
# gauge family per probe metric named mempath_<probe>_<metric>_<base unit>,
# the median in base units, the metric's labels plus host and label, HELP,
# TYPE and UNIT lines, "# EOF" last; label values with quotes, backslashes
# and newlines come back as they were
. "$top/tests/cli/lib.sh"
d=$top/tests/data
"$MEMPATH" report "$d/cmp-aa-1.json" --format openmetrics >run.prom || fail "report: $(cat run.prom)"
[ "$(tail -n 1 run.prom)" = "# EOF" ] || fail "the last line is not '# EOF': $(tail -n 2 run.prom)"
grep -q '^# TYPE mempath_cpu_first_touch_touch_rate_bytes_per_second gauge$' run.prom ||
	fail "no gauge family for cpu.first_touch touch_rate: $(head run.prom)"
grep -q '^# UNIT mempath_cpu_first_touch_touch_rate_bytes_per_second bytes_per_second$' run.prom ||
	fail "no UNIT line"
grep -q '^# HELP mempath_cpu_first_touch_touch_rate_bytes_per_second cpu.first_touch: touch_rate (' run.prom ||
	fail "HELP of a metric without a description: $(grep '^# HELP mempath_cpu_first_touch_touch' run.prom)"
# the median, GiB/s as bytes per second: the CSV's median times 2^30
med=$(csv_value "$d/cmp-aa-1.json" cpu.first_touch touch_rate "pages=4k,touch=write")
got=$(sed -n 's/^mempath_cpu_first_touch_touch_rate_bytes_per_second{pages="4k",touch="write",host="fixture",label="stock"} //p' run.prom)
[ -n "$med" ] && [ -n "$got" ] || fail "no sample for pages=4k,touch=write ($med, $got): $(cat run.prom)"
awk -v m="$med" -v g="$got" 'BEGIN { r = g / (m * 1073741824); exit !(r > 0.999 && r < 1.001) }' ||
	fail "median $med GiB/s written as $got bytes/s"
# a comparison: each leg's median, the change as a ratio, the verdicts
# (four legs a side: A/B/A' has too few legs for a verdict, t4000)
"$MEMPATH" compare "$d/cmp-aa-1.json" "$d/cmp-effect-b.json" "$d/cmp-aa-3.json" "$d/cmp-effect-b2.json" \
	"$d/cmp-aa-4.json" "$d/cmp-effect-b3.json" "$d/cmp-aa-5.json" "$d/cmp-effect-b4.json" \
	--format json -o c.json >/dev/null || fail "compare"
"$MEMPATH" report c.json --format openmetrics >cmp.prom || fail "report of a comparison"
grep -q '^mempath_compare_change_ratio{.*probe="cpu.stream"' cmp.prom || fail "no change ratio: $(cat cmp.prom)"
grep -q '^mempath_compare_verdict{.*verdict="win".*} 1$' cmp.prom || fail "no WIN verdict: $(grep verdict cmp.prom)"
grep -q 'leg="2",variant="B"' cmp.prom || fail "no B leg's median"
# a fleet: each node's medians labelled with the node, whether it is
# flagged, its reference checks, the counts
for n in 1 2; do
	sed "s/\"hostname\": \"fixture\"/\"hostname\": \"node$n\"/" "$d/cmp-aa-1.json" >n$n.json
done
"$MEMPATH" fleet merge n1.json n2.json -o fl.json >/dev/null 2>&1
[ -s fl.json ] || fail "fleet merge wrote nothing"
"$MEMPATH" report fl.json --format openmetrics >fleet.prom
[ "$(tail -n 1 fleet.prom)" = "# EOF" ] || fail "fleet: the last line is not '# EOF'"
grep -q '^mempath_fleet_nodes 2$' fleet.prom || fail "no node count: $(grep fleet_nodes fleet.prom)"
grep -q '^mempath_fleet_node_flagged{host="node2",node="node2",group="1"} [01]$' fleet.prom ||
	fail "no flagged gauge for n2: $(grep node_flagged fleet.prom)"
grep -q '^mempath_cpu_first_touch_touch_rate_bytes_per_second{pages="4k",touch="write",host="node1",node="node1"} ' fleet.prom ||
	fail "no node median: $(grep touch_rate fleet.prom | head -3)"
# quotes, a backslash and a newline in a label value and the run's label
sed -e 's|"label": "stock"|"label": "say \\"hi\\" \\\\ there\\nnext"|' \
	-e 's|"pages": "thp", "touch": "write"}|"pages": "t\\"h\\\\p", "touch": "write"}|' \
	"$d/cmp-aa-1.json" >q.json
"$MEMPATH" report q.json --format openmetrics >q.prom || fail "report of a file with quotes"
py=""
for p in python3 /usr/bin/python3; do
	if "$p" -c 'import prometheus_client.openmetrics.parser' 2>/dev/null; then
		py=$p
		break
	fi
done
[ -n "$py" ] || skip "no python3 with prometheus_client here (apt-get install python3-prometheus-client); the text checks passed"
"$py" - run.prom cmp.prom q.prom fleet.prom <<'PY' || fail "a parser refused the text"
import sys
from prometheus_client.openmetrics.parser import text_string_to_metric_families as om
from prometheus_client.parser import text_string_to_metric_families as prom
import re
for path in sys.argv[1:]:
    text = open(path).read()
    fams = list(om(text))                 # raises on anything invalid
    assert fams, path + ": no families"
    list(prom(text))                      # node_exporter's textfile format
    for f in fams:
        assert f.type == "gauge", (path, f.name, f.type)
        assert re.match(r"^mempath_[a-z0-9_]+$", f.name), f.name
        assert f.documentation, (path, f.name, "no HELP")
        for s in f.samples:
            if path == "fleet.prom":
                if f.name not in ("mempath_fleet_nodes", "mempath_fleet_flagged_nodes"):
                    assert "host" in s.labels and "node" in s.labels, (path, s)
            elif not f.name.startswith("mempath_compare_"):
                assert "host" in s.labels and "label" in s.labels, (path, s)
    if path == "q.prom":
        labels = [s.labels for f in fams for s in f.samples]
        assert any(l.get("label") == 'say "hi" \\ there\nnext' for l in labels), labels[:2]
        assert any(l.get("pages") == 't"h\\p' for l in labels), labels
    if path == "run.prom":
        names = {f.name for f in fams}
        # the unit is part of the name, in base units
        for want in ("mempath_cpu_stream_copy_bw_bytes_per_second",
                     "mempath_cpu_first_touch_random_after_accesses_per_second",
                     "mempath_cpu_first_touch_thp_backed_bytes"):
            assert want in names, (want, names)
print("parsed", len(sys.argv) - 1, "files")
PY
exit 0
