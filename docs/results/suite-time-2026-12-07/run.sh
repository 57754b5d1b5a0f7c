#!/bin/sh
# The quick and gpu suites at the build's defaults on a fresh lent GPU
# machine (the quick suite first: it measures the cache knee), then the
# quick suite again (the knee cached); wall times and check of each file.
# SUITES: which of them (default "quick gpu quick2").
# Builds build/mempath first, with jansson/numa/sqlite3 unpacked from
# third_party/debs (tools/llama-pack.sh fetches them) where the machine
# lacks them. OUT: where suites.tgz goes.
out=${OUT:?}
top=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$top" || exit 1
export PATH=$PATH:/usr/local/cuda/bin
if [ ! -f /usr/include/jansson.h ]; then
	root=/var/tmp/mempath-deps
	for d in third_party/debs/*.deb; do dpkg -x "$d" "$root"; done
	lib=$root/usr/lib/x86_64-linux-gnu
	export C_INCLUDE_PATH=$root/usr/include LIBRARY_PATH=$lib LD_LIBRARY_PATH=$lib
fi
t0=$(date +%s)
make -j"$(nproc)" MPI=0 build/mempath >"$out/build.log" 2>&1 || { tail -20 "$out/build.log"; exit 1; }
echo "build $(($(date +%s) - t0)) s"
B=./build/mempath
w=$(mktemp -d)
nvidia-smi --query-gpu=name,driver_version,uuid --format=csv,noheader >"$w/env.txt"
for s in ${SUITES:-quick gpu quick2}; do
	{ date -u; t0=$(date +%s.%N); $B run --suite ${s%2} -o "$w/$s.json" 2>&1; echo "rc=$? wall $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s"; } >"$w/$s.txt"
	$B check "$w/$s.json" >"$w/check-$s.txt" 2>&1
	tail -1 "$w/$s.txt"
	grep -c '^ *PASS' "$w/check-$s.txt"
	tar czf "$out/suites.tgz" -C "$w" . # after each suite: a call cut short keeps those done
done
