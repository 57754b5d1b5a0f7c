# cpu+gpu: registry smoke test - every probe in the table runs at its quick
# size and writes a results file the strict reader accepts; each is ok (with
# metrics) or skip (with a reason), never fail or timeout; one sample each, since
# this tests the table and the file, not the figures. A new probe is
# covered by this test without new test code.
# test: sanitizers (C paths the unit tests miss: tools/sanitize-pick.sh)
# test: long (started first where no earlier run's times order the pool: tests/run.sh)
. "$top/tests/cli/lib.sh"
probes=$("$MEMPATH" list | awk 'NR > 1 && /^[a-z0-9]+\.[a-z0-9_]+ / { print $1 }')
[ -n "$probes" ] || fail "no probes listed"
# Where a GPU is usable, single-GPU probes must run, not skip.
gpu_probes=""
if "$MEMPATH" sysinfo --json | grep -q '"devices"'; then
	gpu_probes=$("$MEMPATH" list | awk '$2 ~ /gpu/ { print $1 }')
fi
# Under the sanitizers the code is what is tested: cpu.stream reads 64 MiB
# arrays there, not its quick size's 4x the LLC (5.7 GiB on the dev VM).
small=""
[ -z "${MEMPATH_SANITIZED:-}" ] || small=cpu.stream
for p in $probes; do
	args=""
	[ "$p" != "$small" ] || args=size=64M
	# shellcheck disable=SC2086 # args is one word or none
	"$MEMPATH" probe "$p" --quick $args --reps 1 --warmups 0 --quiet -o "$p.json" >"$p.txt" 2>"$p.err" ||
		fail "$p exited $?: $(cat "$p.err")"
	"$MEMPATH" report "$p.json" --format csv >"$p.csv" || fail "$p: results file rejected"
	status=$(awk -F, 'NR == 2 { print $2 }' "$p.csv")
	case $status in
	ok)
		n=$(awk -F, 'NR > 1 && $7 > 0' "$p.csv" | wc -l)
		[ "$n" -gt 0 ] || fail "$p ok but no metric has samples"
		echo "$p: ok, $n metrics"
		;;
	skip)
		grep -q "skip: ." "$p.txt" || fail "$p skipped without a reason"
		case " $(echo $gpu_probes) " in *" $p "*) fail "$p skipped although a GPU is present: $(grep -o 'skip: .*' "$p.txt")" ;; esac
		echo "$p: skip ($(grep -o 'skip: .*' "$p.txt" | head -n 1 | cut -c7-))"
		;;
	*) fail "$p: status $status: $(grep -o "$status: .*" "$p.txt" | head -n 1)" ;;
	esac
done
exit 0
