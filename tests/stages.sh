#!/bin/sh
# tests/stages.sh MAKE 'NAME|TARGET|WHAT'... - make test: runs each stage
# (`MAKE TARGET`) whether or not one before it failed, then prints what each
# ran, its outcome (pass, FAIL, skipped), its counts (the stage's closing
# "N passed, N failed, N skipped" line) and its time, and as the last line
# the sums: "N passed, N failed, N skipped". Exit 1 when a
# stage failed. A stage that ends non-zero without a count line (its build
# or a check before its tests failed) is a FAIL that ran no tests. The
# stages' outcomes come on the line before the sums, so the last line is
# the plain "N passed, N failed, N skipped" a CI reader expects.
set -u
make=$1
shift
log=$(mktemp -d "${TMPDIR:-/tmp}/mempath-stages.XXXXXX")
trap 'rm -rf "$log"' EXIT INT TERM
i=0
for st in "$@"; do
	i=$((i + 1))
	target=$(echo "$st" | cut -d '|' -f 2)
	t0=$(date +%s)
	{
		$make --no-print-directory "$target" 2>&1
		echo $? >"$log/$i.rc"
	} | tee "$log/$i.out"
	echo $(($(date +%s) - t0)) >"$log/$i.secs"
done
pass=0 fail=0 skip=0 bad=0 said=""
echo
echo "make test, by stage:"
i=0
for st in "$@"; do
	i=$((i + 1))
	name=$(echo "$st" | cut -d '|' -f 1)
	what=$(echo "$st" | cut -d '|' -f 3)
	rc=$(cat "$log/$i.rc" 2>/dev/null || echo 1)
	# the stage's closing count line: "[lab: ]N passed, N failed[, N skipped]"
	counts=$(sed -n 's/^\(lab: \)\{0,1\}\([0-9]* passed, [0-9]* failed\(, [0-9]* skipped\)\{0,1\}\)$/\2/p' "$log/$i.out" | tail -n 1)
	p=0 f=0 s=0
	if [ -n "$counts" ]; then
		# shellcheck disable=SC2086 # the counts are words (the loop above has its list already)
		set -- $counts
		p=$1 f=$3 s=${5:-0}
	fi
	if [ "$rc" -ne 0 ]; then
		how=FAIL
		[ -n "$counts" ] || counts="no tests ran (what came before them failed: above)"
		[ "$f" -gt 0 ] || f=1
		bad=1
	elif [ "$p" -eq 0 ] && [ "$s" -gt 0 ]; then
		how=skipped
		counts="$counts: $(sed -n 's/^lab: skipped: //p; s/^study: skipped: //p; s/^test-[a-z]*: skipped //p' "$log/$i.out" | tail -n 1)"
	else
		how=pass
	fi
	pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
	printf '  %-10s %-7s %s s  %s: %s\n' "$name" "$how" "$(cat "$log/$i.secs")" "$what" "$counts"
	said="$said${said:+, }$name $how"
done
echo "stages: $said"
echo "$pass passed, $fail failed, $skip skipped"
[ $bad -eq 0 ]
