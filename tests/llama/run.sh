#!/bin/sh
# tests/llama/run.sh LLAMA_SRC BUILD_DIR - `make test-llama`: llama.cpp's
# llama-bench built (CPU only) from the source tree LLAMA_SRC into
# BUILD_DIR/llama, a random-weight F16 model written with its gguf-py
# (tools/llama-model.py), then the real binary through `mempath wrap` in every
# output format and an `ab` of --mmap 1 vs --mmap 0 with per-leg args. What it
# checks holds on any machine: parsing, labels, knobs, what backs the model
# (anonymous copy with --mmap 0, the page cache with --mmap 1); no timing.
# Skips (exit 0, saying why) when LLAMA_SRC is not set or a tool is missing.
set -u
src=${1:-}
build=${2:-build}
top=$(cd "$(dirname "$0")/../.." && pwd)
case $build in /*) ;; *) build=$top/$build ;; esac
MEMPATH=$build/mempath
skip() {
	echo "test-llama: skipped: $*"
	exit 0
}
fail() {
	echo "test-llama: FAIL: $*" >&2
	exit 1
}
[ -n "$src" ] || skip "LLAMA_SRC is not set (make test-llama LLAMA_SRC=/path/to/llama.cpp)"
[ -f "$src/examples/llama-bench/llama-bench.cpp" ] || skip "$src holds no llama.cpp source (examples/llama-bench)"
[ -d "$src/gguf-py/gguf" ] || skip "$src holds no gguf-py"
command -v cmake >/dev/null 2>&1 || skip "no cmake (apt-get install cmake)"
py=""
for cand in ${PYTHON:-} python3 /usr/bin/python3; do
	"$cand" -c 'import numpy' 2>/dev/null && py=$cand && break
done
[ -n "$py" ] || skip "no python3 with numpy (apt-get install python3-numpy, or PYTHON=...)"
[ -x "$MEMPATH" ] || fail "no $MEMPATH (make first)"
out=$build/llama
mkdir -p "$out"
bench=$out/build/bin/llama-bench
if [ ! -x "$bench" ]; then
	echo "test-llama: building llama-bench (CPU) from $src into $out/build (minutes)"
	t0=$(date +%s)
	cmake -S "$src" -B "$out/build" -DCMAKE_BUILD_TYPE=Release -DLLAMA_CURL=OFF \
		-DGGML_CUDA=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_SERVER=OFF >"$out/cmake.log" 2>&1 ||
		fail "cmake configure failed: see $out/cmake.log"
	cmake --build "$out/build" --target llama-bench -j "${JOBS:-2}" >"$out/build.log" 2>&1 ||
		fail "build failed: see $out/build.log"
	echo "test-llama: built in $(($(date +%s) - t0)) s"
fi
model=$out/m168.gguf
[ -s "$model" ] || "$py" "$top/tools/llama-model.py" --gguf-py "$src/gguf-py" -o "$model" ||
	fail "could not write the model"
work=$(mktemp -d "${TMPDIR:-/tmp}/mempath-test-llama.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
cd "$work" || exit 1
small="-m $model -p 8 -n 4 -r 2 -t ${LLAMA_THREADS:-2}"

# 1. Every output format of the real binary, two configurations.
for fmt in md csv json jsonl sql; do
	# shellcheck disable=SC2086
	"$MEMPATH" wrap -n 1 --timeout 600 -o $fmt.json -- "$bench" $small --mmap 0,1 -o $fmt >$fmt.txt 2>$fmt.err ||
		fail "$fmt: wrap exited $?: $(tail -n 5 $fmt.err)"
	grep -q "4 tests (llama-bench -o $fmt)" $fmt.err || fail "$fmt: $(cat $fmt.err)"
	grep -q '^tokens_per_s test=tg4,mmap=1 ' $fmt.txt || fail "$fmt: no tg4 mmap=1 row: $(cat $fmt.txt)"
	grep -q '"llama.use_mmap": "0,1"' $fmt.json || fail "$fmt: use_mmap knob"
	grep -q '"llama.build_number": "[0-9]' $fmt.json || fail "$fmt: build_number knob"
	echo "test-llama: -o $fmt read: $(grep -c '^tokens_per_s ' $fmt.txt) tests"
done
grep -q '"llama.model_n_params": "[1-9]' json.json || fail "model_n_params"
grep -q '^tg4 ms/token ' json.txt || fail "no ms/token from avg_ns"
# 2. What backs the model: a private copy with --mmap 0 (anonymous memory
#    at least the model's size), the page cache with --mmap 1 (resident,
#    file-backed). Sampled while it runs, every 200 ms.
size_mib=$(($(stat -c %s "$model") >> 20))
for m in 0 1; do
	# shellcheck disable=SC2086
	"$MEMPATH" wrap -n 1 --sample-ms 200 --timeout 600 -o back$m.json -- "$bench" $small --mmap $m -o json \
		>back$m.txt 2>back$m.err || fail "mmap $m: wrap exited $?"
done
anon0=$(awk '$1 == "smaps" && $2 == "Anonymous" && $3 == "(max)" { print int($5); exit }' back0.txt)
anon1=$(awk '$1 == "smaps" && $2 == "Anonymous" && $3 == "(max)" { print int($5); exit }' back1.txt)
rss1=$(awk '$1 == "smaps" && $2 == "Rss" && $3 == "(max)" { print int($5); exit }' back1.txt)
echo "test-llama: model $size_mib MiB; smaps Anonymous --mmap 0: ${anon0:-?} MiB, --mmap 1: ${anon1:-?} MiB (Rss ${rss1:-?})"
[ "${anon0:-0}" -ge "$size_mib" ] || fail "--mmap 0 held ${anon0:-no} anonymous MiB for a $size_mib MiB model"
[ $((${rss1:-0} - ${anon1:-0})) -ge $((size_mib * 9 / 10)) ] ||
	fail "--mmap 1: file-backed resident $((${rss1:-0} - ${anon1:-0})) MiB for a $size_mib MiB model"
# 3. ab of --mmap 1 vs --mmap 0 through per-leg args; the use_mmap knob named.
# shellcheck disable=SC2086
"$MEMPATH" ab --a-args '--mmap 1' --b-args '--mmap 0' --expect-diff llama.use_mmap -o ab \
	-- wrap -n 6 --timeout 600 -- "$bench" -m "$model" -p 8 -n 4 -r 1 -t "${LLAMA_THREADS:-2}" {} -o json \
	>ab.txt 2>ab.err || fail "ab exited $?: $(tail -n 5 ab.err)"
grep -q 'leg 2, B: setup: none; args: --mmap 0' ab.txt || fail "leg args not shown: $(head ab.txt)"
# llama-bench's own settings and the words must not refuse (another user's
# THP flip on a shared machine may, and is reported, not failed on)
grep -q '^  knob \(llama\.\|wrap\.args\)' ab.txt && fail "knobs refused: $(cat ab.txt)"
grep '^  knob ' ab.txt | sed 's/^/test-llama: note: a knob changed during the legs:/' 
grep -q '^work.wrap tokens_per_s test=tg4 ' ab.txt || fail "tg4 not compared: $(cat ab.txt)"
"$MEMPATH" report ab/compare.json >rep.txt 2>&1 || fail "report of compare.json exited $?"
cmp -s ab.txt rep.txt || fail "report of compare.json differs from what ab printed"
grep '^work.wrap tokens_per_s ' ab.txt | sed 's/^/test-llama: /'
echo "test-llama: ok"
