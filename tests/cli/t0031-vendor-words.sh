# The GPU API's own words live in its backend: outside src/gpu/cuda/, no C
# code of src/ (comments aside: they may compare with CUDA) names a CUDA,
# NVML or CUPTI call, type or constant (cudaMalloc, nvmlDeviceGetCount,
# cuCtxCreate, NVML_*, CUPTI_*): probes, doctor and reports take them from
# the backend's names (struct gpu_names), so a second backend's results
# speak its API. The driver's environment (CUDA_VISIBLE_DEVICES, MPS's
# CUDA_MPS_*) is configuration, not API, and may be named. Comments are
# stripped by the compiler's preprocessor without expanding anything.
. "$top/tests/cli/lib.sh"
command -v git >/dev/null 2>&1 || skip "no git: the tracked sources cannot be listed"
cc=${CC:-cc}
command -v "$cc" >/dev/null 2>&1 || skip "no C compiler ($cc) to strip comments"
git -C "$top" ls-files 'src/*.c' 'src/*.h' | grep -v '^src/gpu/cuda/' >files.txt
[ "$(wc -l <files.txt)" -gt 100 ] || fail "only $(wc -l <files.txt) sources listed: not the repository"
: >hits.txt
while read -r f; do
	"$cc" -fpreprocessed -dD -E -P "$top/$f" 2>/dev/null |
		grep -nE '\b(cuda|nvml|cupti)[A-Z][A-Za-z0-9_]*|\bcu[A-Z][a-z]+[A-Z][A-Za-z0-9_]*|\b(NVML|CUPTI)_[A-Z_]+' |
		sed "s|^|$f: |" >>hits.txt
done <files.txt
[ ! -s hits.txt ] || fail "CUDA/NVML/CUPTI API names outside src/gpu/cuda/ (take them from the backend's names): $(head -n 5 hits.txt)"
# the check sees what it looks for: a planted call is found
printf 'int f(void) { return cudaMalloc(0, 0); /* cudaFree */ }\n' >planted.c
"$cc" -fpreprocessed -dD -E -P planted.c | grep -qE '\bcuda[A-Z]' || fail "the check misses a planted cudaMalloc"
"$cc" -fpreprocessed -dD -E -P planted.c | grep -q cudaFree && fail "comments are not stripped"
exit 0
