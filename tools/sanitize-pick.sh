#!/bin/sh
# tools/sanitize-pick.sh [MIN_LINES_PER_S] - which CLI tests the sanitizer
# pass runs (make test-asan, `# test: sanitizers` in a test's header): those
# that reach the C lines the unit tests do not, for what they cost.
# Builds build-cov/ (gcc --coverage, GPU=0 MPI=0), runs the unit tests and
# then each CLI test with a gcov folder of its own (tools/cov_exit.c makes
# probe children write theirs), reads the lines each reached (gcov
# --json-format) and picks greedily the test that adds most lines not yet
# reached per second of its run, down to MIN_LINES_PER_S (default 10). Prints
# one line a test: name, lines added, seconds, share of the lines beyond the
# unit tests reached so far, and whether it is marked now. The marks are
# edited by hand from this list. About 15 minutes on the 2-core dev VM.
set -eu
min=${1:-10}
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
command -v gcov >/dev/null && command -v python3 >/dev/null || {
	echo "sanitize-pick: needs gcov and python3" >&2
	exit 2
}
work=$(mktemp -d "${TMPDIR:-/tmp}/sanitize-pick.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
units=$(ls tests/unit/test_*.c | sed 's|tests/unit/|build-cov/tests/|; s|\.c$||')
# shellcheck disable=SC2086 # the unit binaries are words
make -j"$(nproc)" BUILD=build-cov GPU=0 MPI=0 CFLAGS="-O0 -g --coverage -rdynamic" \
	build-cov/mempath $units >"$work/build.log" 2>&1 || {
	tail -n 20 "$work/build.log" >&2
	exit 1
}
cc -shared -fPIC -O1 -o "$work/cov_exit.so" tools/cov_exit.c -ldl
for t in $units; do
	GCOV_PREFIX=$work/d/unit LD_PRELOAD=$work/cov_exit.so "$t" >/dev/null 2>&1 || true
done
echo "sanitize-pick: unit tests done; the CLI tests, two at a time" >&2
cat >"$work/one.sh" <<ONE
t=\$1 name=\$(basename "\$1" .sh)
tmp=\$(mktemp -d "$work/run.XXXXXX")
t0=\$(date +%s%N)
(cd "\$tmp" && LD_PRELOAD=$work/cov_exit.so GCOV_PREFIX=$work/d/\$name TMPDIR=\$tmp \
	MEMPATH=$top/build-cov/mempath top=$top sh "\$t") >/dev/null 2>&1 || true
echo "\$name \$(( (\$(date +%s%N) - t0) / 1000000 ))" >>"$work/times"
rm -rf "\$tmp"
ONE
ls "$top"/tests/cli/t*.sh | xargs -P 2 -n 1 sh "$work/one.sh"
python3 - "$work" "$top" "$min" <<'PY'
import glob, json, os, shutil, subprocess, sys
work, top, min_rate = sys.argv[1], sys.argv[2], float(sys.argv[3])
build = top + '/build-cov'
secs = {l.split()[0]: int(l.split()[1]) / 1000 for l in open(work + '/times')}
cov = {}
for name in sorted(os.listdir(work + '/d')):
    base = work + '/d/' + name + build
    gcdas = glob.glob(base + '/**/*.gcda', recursive=True)
    for g in gcdas:
        gcno = build + g[len(base):-5] + '.gcno'
        if os.path.exists(gcno):
            shutil.copy(gcno, g[:-5] + '.gcno')
    lines = set()
    for i in range(0, len(gcdas), 40):
        r = subprocess.run(['gcov', '--json-format', '--stdout'] + gcdas[i:i + 40],
                           capture_output=True, text=True, cwd=work)
        for text in r.stdout.splitlines():
            if not text.startswith('{'):
                continue
            for f in json.loads(text)['files']:
                fn = f['file']
                if 'src/' not in fn:
                    continue
                fn = fn[fn.find('src/'):]
                lines |= {'%s:%d' % (fn, l['line_number']) for l in f['lines'] if l['count'] > 0}
    cov[name] = lines
unit = cov.pop('unit', set())
left = {k: v - unit for k, v in cov.items() if k in secs}
beyond = set().union(*left.values()) if left else set()
print('lines reached: unit tests %d, CLI tests beyond them %d' % (len(unit), len(beyond)))
have = set()
while left:
    best = max(left, key=lambda k: len(left[k] - have) / max(secs[k], 0.3))
    gain = len(left[best] - have)
    rate = gain / max(secs[best], 0.3)
    if gain == 0:
        break
    have |= left.pop(best)
    marked = '# test: sanitizers' in open('%s/tests/cli/%s.sh' % (top, best)).read()
    print('%-36s %s +%5d lines %6.1f s  %5.1f%%  %s' % (best, 'pick' if rate >= min_rate else 'skip',
          gain, secs[best], 100 * len(have) / max(len(beyond), 1), 'marked' if marked else '-'))
PY
