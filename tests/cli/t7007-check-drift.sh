# the identity labels of every reference value in data/ against what today's
# probes write (check --drift): the CPU probes data/ names run here at small
# sizes (label keys do not depend on the size), the GPU ones are checked
# against the newest committed H200 runs (docs/results; on a GPU machine
# tools/check-drift.sh runs them). A reference made before a probe added a
# label (data/vm-epyc-2.json before stride_bytes: check printed its two
# latency paths as n/a and passed) fails here.
# test: sanitizers (C paths the unit tests miss: tools/sanitize-pick.sh)
. "$top/tests/cli/lib.sh"
q="--reps 1 --warmups 0 --quiet"
"$MEMPATH" probe cpu.first_touch pages=4k,thp touch=write size=16M $q -o ft.json >/dev/null ||
	fail "cpu.first_touch"
"$MEMPATH" probe cpu.stream kernels=read threads=max pages=thp size=16M $q -o st.json >/dev/null ||
	fail "cpu.stream"
"$MEMPATH" probe cpu.latency sizes=1M pages=4k,thp order=random $q -o lat.json >/dev/null ||
	fail "cpu.latency"
for f in ft.json st.json lat.json "$top/docs/results/judged-h200-2026-12-02/check.json" \
	"$top/docs/results/h200x2-2026-11-30.json"; do
	"$MEMPATH" check --drift "$f" >drift.txt || fail "labels drifted from data/ ($f): $(cat drift.txt)"
done
# every probe data/ names was covered by one of those runs
for p in $(grep -ho '"probe": "[a-z_.]*"' "$top"/data/*.json | sort -u | sed 's/.*: "//; s/"//'); do
	case $p in
	cpu.first_touch | cpu.stream | cpu.latency | gpu.stream | gpu.copy | gpu.p2p | gpu.l2 | \
		gpu.latency | gpu.host_latency) ;;
	ref.*) ;; # a reference tool's figure (tool_figure: mempath import, t5242)
	*) fail "data/ names $p, which this test does not run or read" ;;
	esac
done

# the reference as it was before stride_bytes: both latency paths drift
mkdir refs
sed 's/, "stride_bytes": "64"//' "$top/data/vm-epyc-2.json" >refs/vm-epyc-2.json
"$MEMPATH" check --refs refs --drift lat.json >old.txt
[ $? -eq 1 ] || fail "the old labels did not fail: $(cat old.txt)"
[ "$(grep -c '^DRIFT .*DRAM latency, 256 MiB, random.*labelled size=1M,pages=[a-z0-9]*,order=random,stride_bytes=64' old.txt)" -eq 2 ] ||
	fail "drift lines: $(cat old.txt)"
expect_fail 2 "$MEMPATH" check --drift
exit 0
