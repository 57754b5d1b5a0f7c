#!/bin/sh
# tools/bisect-vm.sh MEMPATH [N] - the bisection of tests/cli/t4020-bisect.sh
# (ten commits of a tiny C program, commit 6 20% slower, commit 4 noisy)
# N times (default 5) on this machine as it is, each in a folder of its
# own: whether git named c6, and every step's verdict. Appends to
# docs/results/bisect-vm-<date>.md (BISECT_OUT).
set -u
bin=${1:?usage: tools/bisect-vm.sh MEMPATH [N]}
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
n=${2:-5}
top=$(cd "$(dirname "$0")/.." && pwd)
out=${BISECT_OUT:-$top/docs/results/bisect-vm-$(date +%F).md}
{
	echo
	echo "## $(date -u +%FT%TZ): $n bisections, $(hostname), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
	echo
	echo "$("$bin" --version); the machine was shared with other work (builds, tests) throughout."
	echo
	echo "| trial | first bad named | right | s | steps (version: verdict; c4 is the noisy one) |"
	echo "|---|---|---|---|---|"
} >>"$out"
right=0
for i in $(seq 1 "$n"); do
	d=$(mktemp -d)
	t0=$(date +%s)
	(cd "$d" && MEMPATH=$bin top=$top sh "$top/tests/cli/t4020-bisect.sh" >log.txt 2>&1)
	rc=$?
	t1=$(date +%s)
	named=$(cd "$d/repo" 2>/dev/null && sed -n 's/^\([0-9a-f]*\) is the first bad commit$/\1/p' ../run.txt | cut -c1-7)
	c6=$(cd "$d/repo" 2>/dev/null && git rev-parse --short=7 c6)
	ok=no
	[ $rc -eq 0 ] && [ -n "$named" ] && [ "$named" = "$c6" ] && ok=yes && right=$((right + 1))
	# each step as the commit's tag (c0..c9) and its verdict
	steps=$(while IFS='	' read -r _ rev verdict _ why; do
		tag=$(git -C "$d/repo" describe --tags --exact-match "$rev" 2>/dev/null || echo "$rev")
		case $verdict in cannot*) printf '%s: %s (%s); ' "$tag" "$verdict" "$why" ;;
		*) printf '%s: %s; ' "$tag" "$verdict" ;; esac
	done <"$d/bis/steps.tsv" 2>/dev/null | sed 's/|/\\|/g')
	echo "| $i | ${named:-none} (c6 is $c6) | $ok | $((t1 - t0)) | $steps |" >>"$out"
	[ $rc -eq 0 ] || echo "trial $i: test exited $rc: $(tail -1 "$d/log.txt")" >&2
	rm -rf "$d"
done
echo >>"$out"
echo "right $right of $n (load at the end: $(cut -d' ' -f1-3 /proc/loadavg))" >>"$out"
echo "bisect-vm: right $right of $n" >&2
[ "$right" -eq "$n" ]
