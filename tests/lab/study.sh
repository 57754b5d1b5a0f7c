#!/bin/sh
# tests/lab/study.sh - the lab's study across kernels (docs/topology.md): the
# plan tests/lab/study.plan (four variants: two Debian kernels x
# kernel.numa_balancing 0 and 2) on the tiered machine, one guest boot per
# kernel the plan asks for. Each boot is tests/lab/lab.sh with that kernel,
# the check `study` alone and the plan's directory carried in (LAB_CARRY);
# in the guest `mempath plan --boot` runs the legs that kernel may and
# writes the kernel to boot next (the plan's `boot` lines); the directory
# that comes out is carried into the next boot. After the last leg the
# comparisons go under DIR/tables/. Then the A/B/A of a driver module
# in one guest: a plan whose setups swap null_blk (tests/lab/modswap.topo).
#
# usage: tests/lab/study.sh [--kernels ROOT] [--out DIR] [--legs L1,L2,...] [--no-modswap]
# --legs runs the plan's variants in that order instead of the plan's legs
# line (CI: one leg each, one reboot, for its time); --no-modswap leaves
# out the module-swap guest.
# ROOT holds boot/vmlinuz-6.1.0-* and boot/vmlinuz-6.12.* with their
# lib/modules/ (default /: the installed kernels; or a tree unpacked with
# dpkg-deb -x from linux-image-6.1.0-*-amd64-unsigned and
# linux-image-6.12.*-amd64-unsigned). Exit 0 when every leg ran under its
# kernel and the tables were written, 77 (the reason on the last line) when
# the study cannot run here, 1 otherwise.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
lab=$top/tests/lab
kroot=${LAB_KERNELS:-/}
out=$top/build-lab/study
legs="" modswap=1
while [ $# -gt 0 ]; do
	case $1 in
	--kernels | --out | --legs) [ $# -ge 2 ] || { echo "study: $1 needs a value" >&2; exit 2; } ;;
	esac
	case $1 in
	--kernels) kroot=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--legs) legs=$(echo "$2" | tr , ' '); shift 2 ;;
	--no-modswap) modswap=0; shift ;;
	*) echo "study: unknown argument $1 (--kernels ROOT, --out DIR, --legs L1,L2,..., --no-modswap)" >&2; exit 2 ;;
	esac
done
kroot=${kroot%/} # "/" reads as "", so "$kroot/boot" is /boot
for w in $legs; do
	grep -qxF "variant $w" "$lab/study.plan" ||
		{ echo "study: --legs: no variant '$w' in tests/lab/study.plan" >&2; exit 2; }
done
# the closing count line tests/stages.sh reads (make test's stage summary)
skip() {
	echo "study: skipped: $*"
	echo "0 passed, 0 failed, 1 skipped"
	exit 77
}
newest() { ls -v "$kroot"/boot/vmlinuz-$1 2>/dev/null | grep -v -e '-rt-' -e '-cloud-' | tail -n 1; }
k61=$(newest '6.1.0-*') k612=$(newest '6.12.*')
[ -n "$k61" ] || skip "no 6.1 kernel under $kroot/boot (apt-get install linux-image-6.1.0-*-amd64, or --kernels ROOT)"
[ -n "$k612" ] || skip "no 6.12 kernel under $kroot/boot (linux-image-6.12.*-amd64 from bookworm, or --kernels ROOT: CI_TOOLS=1 sh tools/deps.sh unpacks both under /var/cache/mempath/kernels/root)"
echo "study: kernels $k61 and $k612"
mkdir -p "$(dirname "$out")" || exit 1
# LAB_MEMPATH: a MPI=0 GPU=0 mempath built already (the lab's guests take it
# too, tests/lab/lab.sh), else build-lab/
mempath=${LAB_MEMPATH:-}
if [ -n "$mempath" ]; then
	case $mempath in /*) ;; *) mempath=$top/$mempath ;; esac
	[ -x "$mempath" ] || { echo "study: LAB_MEMPATH $mempath is not an executable"; exit 1; }
	export LAB_MEMPATH="$mempath"
else
	make -C "$top" --no-print-directory -s BUILD=build-lab MPI=0 GPU=0 -j2 build-lab/mempath >"$out.build.log" 2>&1 ||
		{ tail -n 20 "$out.build.log"; echo "study: the build failed"; exit 1; }
	mempath=$top/build-lab/mempath
fi
rm -rf "$out"
mkdir -p "$out/carry/plan"
cp "$lab/study.plan" "$out/carry/plan/"
if [ -n "$legs" ]; then
	sed -i "s/^legs .*/legs $legs/" "$out/carry/plan/study.plan"
	echo "study: legs $legs (--legs)"
fi
# the first kernel: what the plan says to boot for its first leg
next=$(cd "$out/carry" && "$mempath" plan --status plan/study.plan | sed -n 's/^boot next: echo \([a-z0-9]*\) >boot-next$/\1/p')
boots=0 rc=4
t0=$(date +%s)
while [ "$rc" = 4 ] && [ $boots -lt 4 ]; do
	boots=$((boots + 1))
	case $next in
	k61) k=$k61 ;;
	k612) k=$k612 ;;
	*) echo "study: the plan asks to boot '$next', not k61 or k612"; exit 1 ;;
	esac
	v=$(basename "$k" | sed 's/^vmlinuz-//')
	echo "study: boot $boots: $v"
	LAB_CARRY=$out/carry LAB_CHECKS=study LAB_BUDGET=${STUDY_BUDGET:-450} \
		sh "$lab/lab.sh" --jobs 1 --kernel "$k" --modules "$kroot/lib/modules/$v" --out "$out/boot-$boots" tiered \
		>"$out/boot-$boots.log" 2>&1
	lrc=$?
	[ $lrc = 77 ] && skip "$(tail -n 2 "$out/boot-$boots.log" | head -n 1)"
	grep -e '^ok' -e '^FAIL' -e '^skip' -e '^    ' "$out/boot-$boots.log"
	g=$out/boot-$boots/tiered/guest/study
	[ -s "$g/plan.rc" ] || { echo "study: boot $boots gave no plan result"; tail -n 20 "$out/boot-$boots.log"; exit 1; }
	rc=$(cat "$g/plan.rc")
	rm -rf "$out/carry/plan"
	cp -r "$g/plan" "$out/carry/plan"
	next=$(cat "$g/boot-next" 2>/dev/null)
done
echo "study: $boots boots, $(($(date +%s) - t0)) s; plan exit $rc"
case $rc in 0 | 3) ;; *) echo "study: the plan did not finish (exit $rc)"; exit 1 ;; esac
# the plan's own comparison of the four variants (its last run wrote
# study.md and study.json: each variant against k61-nb0, the family held by
# Holm; docs/design.md §5.22), then the pairs one at a time: nb2 against
# nb0 on each kernel, and each mode across the kernels
p=$out/carry/plan
[ -s "$p/study.md" ] && [ -s "$p/study.json" ] || { echo "study: the plan wrote no study.md/study.json"; exit 1; }
mkdir -p "$out/tables"
cp "$p/study.md" "$out/tables/variants.md"
pair() { # NAME BASE OTHER: the two variants' legs in plan order, compared by rounds
	files="" legs=""
	n=0
	while [ -e "$(echo "$p/leg-$((n + 1))-r"*.json)" ]; do
		n=$((n + 1))
		f=$(echo "$p/leg-$n-r"*.json)
		case $f in
		*-r?-"$2".json) files="$files $f" legs="${legs}A" ;;
		*-r?-"$3".json) files="$files $f" legs="${legs}B" ;;
		esac
	done
	# shellcheck disable=SC2086
	"$mempath" compare --legs "$legs" --expect-diff numa_balancing $files --format json -o "$out/tables/$1.json" 2>"$out/tables/$1.err"
	"$mempath" report "$out/tables/$1.json" --format md >"$out/tables/$1.md" 2>>"$out/tables/$1.err"
	"$mempath" report "$out/tables/$1.json" >"$out/tables/$1.txt" 2>>"$out/tables/$1.err"
}
pair k61-nb2-vs-nb0 k61-nb0 k61-nb2
pair k612-nb2-vs-nb0 k612-nb0 k612-nb2
pair nb0-k612-vs-k61 k61-nb0 k612-nb0
pair nb2-k612-vs-k61 k61-nb2 k612-nb2
# the study's tables by variant (a tiering report's layout)
sh "$lab/study-tables.sh" "$p" >"$out/tables/study.md" || echo "study: no tables by variant (see $out/tables/study.md)"
ls "$out/tables"
# the A/B/A of a driver module: a plan of two variants whose setup
# swaps null_blk (tests/lab/checks/modswap.sh), one boot of 6.1
if [ $modswap = 0 ]; then
	echo "study: the module-swap A/B/A left out (--no-modswap)"
	echo "1 passed, 0 failed, 0 skipped"
	exit 0
fi
v=$(basename "$k61" | sed 's/^vmlinuz-//')
echo "study: the module-swap A/B/A under $v"
sh "$lab/lab.sh" --jobs 1 --kernel "$k61" --modules "$kroot/lib/modules/$v" --out "$out/modswap" "$lab/modswap.topo" \
	>"$out/modswap.log" 2>&1
grep -e '^ok' -e '^FAIL' -e '^skip' -e '^    ' "$out/modswap.log"
grep -q '^lab: 1 passed, 0 failed' "$out/modswap.log" || exit 1
echo "1 passed, 0 failed, 0 skipped"
exit 0
