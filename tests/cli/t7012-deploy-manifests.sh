# deploy/: the manifests are YAML of the kinds they say, the DaemonSet writes
# the textfile into the folder it mounts, the Indexed Job saves one results
# file an index, the node-problem-detector monitor config names the plugin
# script; then each is validated against the Kubernetes schemas (below),
# skipped with the reason where a validator is not installed.
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
# against the Kubernetes schemas, by two validators each holding the API's
# OpenAPI spec (tools/deps.sh installs both under CI_TOOLS=1): npm's
# kubernetes-models for the types, formats, enums and required fields
# (tools/k8s-validate.mjs) and Debian's python3-kubernetes for unknown
# fields (tools/k8s-fields.py); each must also refuse a planted broken copy
mods=${MEMPATH_NODE_MODULES:-/var/cache/mempath/node/node_modules}
ran=""
missing=""
python3 - "$d" <<'PY' || fail "planting the broken manifests"
import json, sys, yaml
d = sys.argv[1]
for name in ("daemonset", "fleet-job"):
    docs = [x for x in yaml.safe_load_all(open("%s/%s.yaml" % (d, name))) if x]
    json.dump(docs, open(name + ".json", "w"))
    bad = json.loads(json.dumps(docs))
    spec = bad[0]["spec"]["template"]["spec"]
    spec["hostPID"] = "yes"                  # a boolean
    del spec["containers"][0]["name"]        # required
    spec["containers"][0]["imagePullPolicy"] = "Sometimes"  # not in the enum
    json.dump(bad, open(name + "-types.json", "w"))
    bad = [json.loads(json.dumps(x)) for x in docs]
    bad[0]["spec"]["template"]["spec"]["containers"][0]["volumeMount"] = []  # volumeMounts
    yaml.safe_dump_all(bad, open(name + "-fields.yaml", "w"))
PY
if command -v node >/dev/null 2>&1 && [ -f "$mods/kubernetes-models/package.json" ]; then
	node "$top/tools/k8s-validate.mjs" "$mods" daemonset.json fleet-job.json >kv.txt 2>&1 ||
		fail "kubernetes-models: $(cat kv.txt)"
	[ "$(grep -c ': valid$' kv.txt)" -eq 2 ] || fail "kubernetes-models: $(cat kv.txt)"
	for name in daemonset fleet-job; do
		node "$top/tools/k8s-validate.mjs" "$mods" $name-types.json >bad.txt 2>&1
		[ $? -eq 1 ] || fail "kubernetes-models passed a broken $name: $(cat bad.txt)"
		for w in 'hostPID must be boolean' 'containers/0 must have required property name' \
			'imagePullPolicy must be equal to one of the allowed values'; do
			grep -q "$w" bad.txt || fail "kubernetes-models on a broken $name, no '$w': $(cat bad.txt)"
		done
	done
	ran="$ran types, formats, enums and required fields (kubernetes-models $(sed -n 's/^ *"version": "\(.*\)",$/\1/p' "$mods/kubernetes-models/package.json"));"
else
	missing="$missing kubernetes-models (npm; CI_TOOLS=1 sh tools/deps.sh)"
fi
if /usr/bin/python3 -c 'import kubernetes, yaml' 2>/dev/null; then
	/usr/bin/python3 "$top/tools/k8s-fields.py" "$d/daemonset.yaml" "$d/fleet-job.yaml" >kf.txt 2>&1 ||
		fail "unknown fields: $(cat kf.txt)"
	[ "$(grep -c ': every field known$' kf.txt)" -eq 2 ] || fail "fields: $(cat kf.txt)"
	for name in daemonset fleet-job; do
		/usr/bin/python3 "$top/tools/k8s-fields.py" $name-fields.yaml >bad.txt 2>&1
		[ $? -eq 1 ] || fail "k8s-fields passed an unknown field in $name: $(cat bad.txt)"
		grep -q 'spec.template.spec.containers\[0\].volumeMount: unknown field (V1Container has no volumeMount)' bad.txt ||
			fail "k8s-fields on $name: $(cat bad.txt)"
	done
	ran="$ran unknown fields (python3-kubernetes $(/usr/bin/python3 -c 'import kubernetes; print(kubernetes.__version__)'));"
else
	missing="$missing python3-kubernetes (apt-get install python3-kubernetes)"
fi
[ -z "$missing" ] || skip "manifests read as intended;${ran:+ validated for$ran} not validated: no$missing"
echo "deploy/ validated against the Kubernetes schemas:${ran%;}"
exit 0
