# check --textfile read back through a real scrape: node_exporter (only its
# textfile collector) reads the folder check writes, a Prometheus server
# scrapes node_exporter, and the series come back through Prometheus's HTTP
# API with their value and labels; a second check on a changed file (the
# HBM read path at half its reference) shows the new state and share. Both
# servers run here on free ports under this test's folder and are stopped
# on every exit. Skips with the reason where either binary is absent.
. "$top/tests/cli/lib.sh"
ne=$(command -v prometheus-node-exporter || command -v node_exporter) ||
	skip "no prometheus-node-exporter here (apt-get install prometheus-node-exporter)"
prom=$(command -v prometheus) || skip "no prometheus here (apt-get install prometheus)"
command -v curl >/dev/null 2>&1 || skip "no curl here to ask the servers"
command -v python3 >/dev/null 2>&1 || skip "no python3 here to read the API's JSON"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
ne_pid= prom_pid=
stop() {
	for p in $ne_pid $prom_pid; do kill "$p" 2>/dev/null; done
	for p in $ne_pid $prom_pid; do wait "$p" 2>/dev/null; done
}
trap stop EXIT
trap 'exit 1' INT TERM HUP
fix=$top/docs/results/check-h200-2026-12-01.json
# the references that file was measured against (data/ before issue 41)
export MEMPATH_REFS=$top/tests/data/refs-2026-12-01
mkdir tf
SLURM_JOB_ID=4242 POD_NAME=mempath-abc POD_NAMESPACE=gpu-checks "$MEMPATH" check --textfile tf "$fix" \
	>check1.txt 2>&1 || fail "check: exit $?: $(tail -3 check1.txt)"
[ "$(stat -c %a tf/mempath.prom)" = 644 ] || fail "mode $(stat -c %a tf/mempath.prom), not 644"
ne_port=$(free_port)
"$ne" --web.listen-address=127.0.0.1:$ne_port --collector.disable-defaults --collector.textfile \
	--collector.textfile.directory="$PWD/tf" >ne.log 2>&1 &
ne_pid=$!
prom_port=$(free_port)
cat >prom.yml <<YML
global: {scrape_interval: 1s, scrape_timeout: 1s, evaluation_interval: 1s}
scrape_configs:
  - job_name: node
    static_configs: [{targets: ["127.0.0.1:$ne_port"]}]
YML
"$prom" --config.file=prom.yml --storage.tsdb.path="$PWD/tsdb" --web.listen-address=127.0.0.1:$prom_port \
	>prom.log 2>&1 &
prom_pid=$!
api=http://127.0.0.1:$prom_port
i=0
until curl -fsS "$api/-/ready" >/dev/null 2>&1; do
	i=$((i + 1))
	[ $i -le 300 ] || fail "Prometheus not ready after 60 s: $(tail -3 prom.log)"
	kill -0 $prom_pid 2>/dev/null || fail "Prometheus exited: $(tail -3 prom.log)"
	kill -0 $ne_pid 2>/dev/null || fail "node_exporter exited: $(tail -3 ne.log)"
	sleep 0.2
done
# query Q: every series of the answer as "labels value", one a line
query() {
	curl -fsS "$api/api/v1/query" --data-urlencode "query=$1" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["status"] == "success", d
for r in d["data"]["result"]:
    m = r["metric"]
    print(",".join("%s=%s" % (k, m[k]) for k in sorted(m)), r["value"][1])'
}
# wait_for Q WANT: polls Q until a line of its answer matches WANT (30 s)
wait_for() {
	i=0
	while :; do
		query "$1" >q.txt 2>q.err || fail "query $1: $(cat q.err)"
		grep -q "$2" q.txt && return 0
		i=$((i + 1))
		[ $i -le 150 ] || fail "no '$2' for $1 after 30 s: $(cat q.txt)"
		sleep 0.2
	done
}
hbm='path="HBM read, own SM kernel"'
wait_for "mempath_check_state{$hbm,state=\"PASS\"}" ' 1$'
grep -q '^gpu=NVIDIA H200,instance=127.0.0.1:'$ne_port',job=node,namespace=gpu-checks,node=vm,path=HBM read, own SM kernel,pod=mempath-abc,reference=NVIDIA H200 (HBM3e, PCIe 5 x16),slurm_job=4242,state=PASS,__name__=\|^__name__=mempath_check_state,gpu=NVIDIA H200,instance=127.0.0.1:'$ne_port',job=node,namespace=gpu-checks,node=vm,path=HBM read, own SM kernel,pod=mempath-abc,reference=NVIDIA H200 (HBM3e, PCIe 5 x16),slurm_job=4242,state=PASS 1$' q.txt ||
	fail "labels or value not as written: $(cat q.txt)"
query "mempath_check_paths{state=\"PASS\"}" | grep -q ' 5$' || fail "not 5 PASS paths: $(query 'mempath_check_paths')"
query "mempath_check_share_ratio{$hbm}" | awk '{ v = $NF } END { exit !(v > 0.99 && v < 1.01) }' ||
	fail "share not about 1: $(query "mempath_check_share_ratio{$hbm}")"
query 'node_textfile_scrape_error' | grep -q ' 0$' || fail "the collector could not read the file: $(cat ne.log)"
# the HBM read samples halved: the path FAILs, its share is 0.5
python3 - "$fix" half.json <<'PY'
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
"$MEMPATH" check --textfile tf half.json >check2.txt 2>&1
[ $? -eq 1 ] || fail "check of the halved file did not exit 1: $(tail -3 check2.txt)"
grep -q '^FAIL  HBM read, own SM kernel' check2.txt || fail "the halved path is not FAIL: $(head -3 check2.txt)"
wait_for "mempath_check_state{$hbm,state=\"FAIL\"}" ' 1$'
query "mempath_check_state{$hbm,state=\"PASS\"}" | grep -q ' 0$' || fail "PASS still 1 after the change"
query "mempath_check_share_ratio{$hbm}" | awk '{ v = $NF } END { exit !(v > 0.49 && v < 0.51) }' ||
	fail "share not about 0.5: $(query "mempath_check_share_ratio{$hbm}")"
ls -a tf | grep -v '^\.\.\?$' | grep -qvx mempath.prom && fail "more than mempath.prom in the folder: $(ls -a tf)"
exit 0
