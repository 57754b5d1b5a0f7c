# deploy/: the manifests are YAML of the kinds they say, the DaemonSet writes
# the textfile into the folder it mounts, the Indexed Job saves one results
# file an index, the node-problem-detector monitor config names the plugin
# script; then each is validated against the Kubernetes schemas with
# kubernetes-validate, skipped with the reason where it is not installed.
. "$top/tests/cli/lib.sh"
python3 -c 'import yaml' 2>/dev/null || skip "no python3 yaml here to read the manifests"
d=$top/deploy
python3 - "$d" <<'PY' >shape.txt 2>&1 || fail "manifests: $(cat shape.txt)"
import json, sys, yaml
d = sys.argv[1]
ds = yaml.safe_load(open(d + "/daemonset.yaml"))
assert ds["kind"] == "DaemonSet" and ds["apiVersion"] == "apps/v1", ds["kind"]
c = ds["spec"]["template"]["spec"]["containers"][0]
mounts = {m["name"]: m["mountPath"] for m in c["volumeMounts"]}
script = " ".join(c["args"])
assert "--textfile " + mounts["textfile"] in script, script
assert "-o " + mounts["results"] + "/last.json" in script, script
env = {e["name"] for e in c["env"]}
assert {"NODE_NAME", "POD_NAME", "POD_NAMESPACE"} <= env, env
job = yaml.safe_load(open(d + "/fleet-job.yaml"))
assert job["kind"] == "Job" and job["spec"]["completionMode"] == "Indexed", job["spec"]
assert job["spec"]["completions"] == job["spec"]["parallelism"]
assert "$JOB_COMPLETION_INDEX" in " ".join(job["spec"]["template"]["spec"]["containers"][0]["args"])
mon = json.load(open(d + "/npd/mempath-monitor.json"))
assert mon["plugin"] == "custom", mon["plugin"]
rule = mon["rules"][0]
assert rule["path"].endswith("/mempath-check.sh") and rule["condition"] == mon["conditions"][0]["type"]
print("ok")
PY
# the commands the manifests run are ones this mempath takes
"$MEMPATH" check --help >help.txt 2>&1 || fail "check --help: exit $?"
for o in '--textfile PATH' '-o, --output FILE' '-q, --quiet'; do
	grep -q -- "^ *$o " help.txt || fail "check has no '$o', which the manifests pass"
done
kv=$(command -v kubernetes-validate || ls /tmp/mon-kv/bin/kubernetes-validate 2>/dev/null) ||
	skip "manifests read as intended; not validated against the Kubernetes schemas: kubernetes-validate is not installed (pip install kubernetes-validate)"
"$kv" --strict "$d/daemonset.yaml" "$d/fleet-job.yaml" >kv.txt 2>&1 || fail "kubernetes-validate: $(cat kv.txt)"
exit 0
