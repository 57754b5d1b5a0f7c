#!/bin/sh
# docs/results/seam-h200-2026-12-01/run.sh - the neutral GPU seam (docs/design.md
# §7) on the one-H200 machine, from the repository root, OUT the results folder:
#   OUT=/tmp/out OLD=third_party/old-a7973ef.tar.gz sh docs/results/seam-h200-2026-12-01/run.sh
# Builds this tree (CUDA backend under src/gpu/cuda/) and OLD, a `git archive`
# of the commit before the seam, both with MPI=0 and the libraries of
# third_party/debs; runs every GPU probe --quick with each binary and compares
# what a results file says of the method: each metric's desc, the probe's
# params and its extra keys (compare.txt; values measured differ, names must
# not); then make test-plain with this tree's build (test-plain.txt).
set -u
R=${OUT:?OUT: the results folder}
mkdir -p "$R"
if [ -d third_party/debs ]; then
	mkdir -p /opt/dd
	for f in third_party/debs/*.deb; do dpkg -x "$f" /opt/dd; done
	L=/opt/dd/usr/lib/x86_64-linux-gnu
	export C_INCLUDE_PATH=/opt/dd/usr/include LIBRARY_PATH=$L LD_LIBRARY_PATH=$L
fi
export PATH="$PATH:/usr/local/cuda/bin" NCCL_NVLS_ENABLE=0
{ date -u; nvidia-smi -L; uname -r; } >"$R/machine.txt" 2>&1
make -j16 MPI=0 >"$R/build-new.log" 2>&1 || { tail -20 "$R/build-new.log"; exit 1; }
old=/tmp/seam-old && rm -rf $old && mkdir -p $old && tar -xzf "${OLD:?OLD: the old tree}" -C $old
make -C $old -j16 MPI=0 >"$R/build-old.log" 2>&1 || { tail -20 "$R/build-old.log"; exit 1; }
cd "$R" || exit 1
top=$OLDPWD
for p in $("$top/build/mempath" list | awk '$1 ~ /^gpu\./ { print $1 }'); do
	"$old/build/mempath" probe "$p" --quick --quiet -o "old-$p.json" >/dev/null 2>"old-$p.err"
	"$top/build/mempath" probe "$p" --quick --quiet -o "new-$p.json" >/dev/null 2>"new-$p.err"
done
python3 - >compare.txt 2>&1 <<'PY'
import glob, json
for f in sorted(glob.glob("old-*.json")):
    a, b = json.load(open(f)), json.load(open(f.replace("old-", "new-")))
    for x, y in zip(a["probes"], b["probes"]):
        d = lambda p: {(m["name"], tuple(sorted(m["labels"].items()))): m.get("desc") for m in p["metrics"]}
        pk = {k for k in set(x["params"]) | set(y["params"]) if x["params"].get(k) != y["params"].get(k)}
        print(f[4:-5], x["status"], y["status"],
              "desc same" if d(x) == d(y) else "DESC DIFFER %s" % sorted(set(d(x).items()) ^ set(d(y).items()))[:4],
              "params same" if not pk else "params differ: " + ",".join(sorted(pk)),
              "extra keys same" if sorted(x.get("extra") or {}) == sorted(y.get("extra") or {}) else "EXTRA DIFFER")
    ga, gb = a.get("host", {}).get("gpu"), b.get("host", {}).get("gpu")
    if json.dumps(ga, sort_keys=True) != json.dumps(gb, sort_keys=True):
        ka = sorted(ga[0]) if isinstance(ga, list) and ga else sorted(ga) if isinstance(ga, dict) else ga
        kb = sorted(gb[0]) if isinstance(gb, list) and gb else sorted(gb) if isinstance(gb, dict) else gb
        print("  fingerprint gpu keys", "same" if ka == kb else "DIFFER", ka if ka != kb else "")
PY
cd "$top" || exit 1
TEST_JOBS=8 make test-plain MPI=0 >"$R/test-plain.txt" 2>&1
echo "test-plain rc=$?" >>"$R/test-plain.txt"
tail -3 "$R/test-plain.txt"
cat "$R/compare.txt"
