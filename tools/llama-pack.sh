#!/bin/sh
# tools/llama-pack.sh LLAMA_SRC [OUT] - packs what a build of llama.cpp's
# llama-bench needs (its CMake tree, ggml, src, common, examples, gguf-py;
# not its models, docs or tests) into OUT (default third_party/llama-pack.tar.gz,
# an ignored path that `run`'s carry takes to a machine without internet),
# with the build number and commit written into cmake/build-info.cmake, since
# the copy has no git to ask. LLAMA_SRC: a llama.cpp checkout, or a plain tree
# with LLAMA_COMMIT and LLAMA_BUILD_NUMBER set. Also fetches, with apt-get
# download, the Debian packages mempath builds against (libjansson, libnuma, libsqlite3)
# into third_party/debs/, for a machine that lacks them.
set -eu
src=${1:?usage: tools/llama-pack.sh LLAMA_SRC [OUT]}
top=$(cd "$(dirname "$0")/.." && pwd)
out=${2:-$top/third_party/llama-pack.tar.gz}
commit=${LLAMA_COMMIT:-$(git -C "$src" rev-parse --short=8 HEAD 2>/dev/null || echo unknown)}
number=${LLAMA_BUILD_NUMBER:-$(git -C "$src" rev-list --count HEAD 2>/dev/null || echo 0)}
[ -f "$src/examples/llama-bench/llama-bench.cpp" ] || { echo "no llama.cpp source in $src" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/llama.cpp" "$(dirname "$out")"
(cd "$src" && tar cf - --exclude=.git --exclude=./models --exclude=./docs --exclude=./media \
	--exclude=./tests --exclude=./build* --exclude='*.gguf' --exclude=./common/build-info.cpp \
	--exclude=__pycache__ .) | (cd "$tmp/llama.cpp" && tar xf -)
sed -i "s/^set(BUILD_NUMBER .*)/set(BUILD_NUMBER $number)/; s/^set(BUILD_COMMIT .*)/set(BUILD_COMMIT \"$commit\")/" \
	"$tmp/llama.cpp/cmake/build-info.cmake"
grep -q "BUILD_COMMIT \"$commit\"" "$tmp/llama.cpp/cmake/build-info.cmake"
tar czf "$out" -C "$tmp" llama.cpp
echo "$out: llama.cpp build $number ($commit), $(du -k "$out" | cut -f1) KiB"
if command -v apt-get >/dev/null 2>&1; then
	mkdir -p "$top/third_party/debs"
	(cd "$top/third_party/debs" && apt-get download -q libjansson4 libjansson-dev libnuma1 libnuma-dev libsqlite3-0 libsqlite3-dev >/dev/null 2>&1) &&
		echo "$top/third_party/debs: $(ls "$top/third_party/debs" | tr '\n' ' ')" ||
		echo "apt-get download failed: no debs (the machine must have libjansson-dev, libnuma-dev and libsqlite3-dev)"
fi
