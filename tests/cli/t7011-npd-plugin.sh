# deploy/npd/mempath-check.sh, the node-problem-detector plugin, answers in
# the plugin protocol: exit 0 and an OK message on a results file whose
# paths all pass, 1 and the failing path on one whose HBM read is at half
# its reference, and another code (unknown) when there is no results file
# or mempath refuses the file; one line of output each time.
. "$top/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "no python3 here to make the failing file"
plugin=$top/deploy/npd/mempath-check.sh
fix=$top/docs/results/check-h200-2026-12-01.json
# the references that file was measured against (data/ before issue 41)
export MEMPATH_REFS=$top/tests/data/refs-2026-12-01
python3 - "$fix" fail.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for p in d["probes"]:
    for m in p["metrics"]:
        lab = m.get("labels", {})
        if p["name"] == "gpu.stream" and lab.get("kernel") == "read" and lab.get("access") == "default":
            m["samples"] = [s / 2 for s in m["samples"]]
            m.pop("summary", None)
json.dump(d, open(sys.argv[2], "w"))
PY
printf '{"schema": "mempath/run/1", "probes": [' >broken.json
# run FILE WANT_RC: the plugin on FILE; its one line in msg.txt
run() {
	MEMPATH=$MEMPATH MEMPATH_RESULTS=$1 sh "$plugin" >msg.txt 2>&1
	rc=$?
	[ $rc -eq "$2" ] || fail "$1: exit $rc, not $2: $(cat msg.txt)"
	[ "$(wc -l <msg.txt)" -eq 1 ] || fail "$1: not one line: $(cat msg.txt)"
}
run "$fix" 0
grep -qx 'memory paths OK: 5 PASS or WARN' msg.txt || fail "pass message: $(cat msg.txt)"
run fail.json 1
grep -q '^FAIL HBM read, own SM kernel: 2277.0 GB/s, reference 4554.1 GB/s' msg.txt ||
	fail "fail message: $(cat msg.txt)"
run missing.json 2
grep -q '^no results file to judge: missing.json$' msg.txt || fail "missing message: $(cat msg.txt)"
run broken.json 2
grep -q '^mempath check exited 2: ' msg.txt || fail "broken message: $(cat msg.txt)"
MEMPATH=$PWD/no-such-mempath MEMPATH_RESULTS=$fix sh "$plugin" >msg.txt 2>&1
rc=$?
[ $rc -ne 0 ] && [ $rc -ne 1 ] || fail "no binary: exit $rc, not unknown: $(cat msg.txt)"
exit 0
