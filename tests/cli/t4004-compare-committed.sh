# compare on the committed results files gives the same verdicts, byte for
# byte, as the version that wrote tests/data/golden-compare/ (made by
# `sh tests/cli/t4004-compare-committed.sh --make-golden` with that version):
# a metric's identity comes from the files, not from this binary's option tables.
# Version fields aside (the tool's version and git hash).
. "$top/tests/cli/lib.sh"
golden=$top/tests/data/golden-compare
r=$top/docs/results
d=$top/tests/data
make_golden=0
[ "${1:-}" = --make-golden ] && make_golden=1

# name | legs pattern | compare options | files (relative to the repository)
cases() {
	cat <<ROWS
thp-ab|ABA|--expect-diff thp_enabled --control cpu.first_touch,pages=thp|$r/ab-thp-2026-11-30/leg-1-madvise.json $r/ab-thp-2026-11-30/leg-2-always.json $r/ab-thp-2026-11-30/leg-3-madvise.json
thp-ab-run4|ABA|--expect-diff thp_enabled|$r/ab-thp-2026-11-30/run4/leg-1-madvise.json $r/ab-thp-2026-11-30/run4/leg-2-always.json $r/ab-thp-2026-11-30/run4/leg-3-madvise.json
thp-ab-busy|ABA|--expect-diff thp_enabled --threshold 10 --control cpu.first_touch,pages=thp --control cpu.first_touch,pages=4k|$r/ab-thp-busy-2026-11-30/leg-1-madvise.json $r/ab-thp-busy-2026-11-30/leg-2-always.json $r/ab-thp-busy-2026-11-30/leg-3-madvise.json
ce-256M|AB|--allow-diff|$r/h200x2-ce-size-2026-11-30/ce-256M-1.json $r/h200x2-ce-size-2026-11-30/ce-256M-2.json
ce-size|AB|--allow-diff|$r/h200x2-ce-size-2026-11-30/ce-256M-1.json $r/h200x2-ce-size-2026-11-30/ce-1G-1.json
p2p-256M-512M|AB|--allow-diff|$r/h200x2-256M-2026-11-30.json $r/h200x2-2026-11-30.json
copy-pinned|AB|--allow-diff|$r/h200-copy-2026-11-30/pinned-1.json $r/h200-copy-2026-11-30/pinned-2.json
vm-quick-full|AB|--allow-diff|$r/vm-quick-2026-11-30.json $r/vm-full-2026-11-30.json
fixtures-aa|ABA||$d/cmp-aa-1.json $d/cmp-aa-2.json $d/cmp-aa-3.json
fixtures-missing|ABA||$d/cmp-aa-1.json $d/cmp-missing-b.json $d/cmp-void-a2.json
fixtures-knob|ABA|--expect-diff thp_enabled|$d/cmp-aa-1.json $d/cmp-knob-b.json $d/cmp-aa-3.json
ROWS
}

# The tool's version and git hash may differ; so may the absolute paths.
rw=$PWD/rw
scrub() {
	sed -e 's/"version": "[^"]*"/"version": V/' -e 's/"git": "[^"]*"/"git": G/' \
		-e "s|$rw/||g" -e "s|$top/||g"
}

# Each case twice: on the files as committed, and on the same runs written
# again by this binary (which records each probe's identity in the file).
cases | while IFS='|' read -r name legs opts files; do
	[ $make_golden = 1 ] || for f in $files; do
		mkdir -p "$rw/$(dirname "${f#"$top"/}")"
		"$MEMPATH" report "$f" --format json -o "$rw/${f#"$top"/}" ||
			fail "cannot rewrite $f"
	done
	rewritten=$(for f in $files; do printf '%s ' "$rw/${f#"$top"/}"; done)
	for fmt in term md json html; do
		for set in committed rewritten; do
			[ $set = committed ] && in=$files || in=$rewritten
			[ $make_golden = 1 ] && [ $set = rewritten ] && continue
			# shellcheck disable=SC2086
			"$MEMPATH" compare --legs "$legs" $opts --format "$fmt" $in >out.raw 2>err.txt
			rc=$?
			# 3: no trusted verdict (knobs differ, a control moved)
			[ $rc -le 1 ] || [ $rc -eq 3 ] || fail "$name ($fmt, $set): compare exited $rc: $(cat err.txt)"
			scrub <out.raw >"out.$fmt"
			if [ $make_golden = 1 ]; then
				cp "out.$fmt" "$golden/$name.$fmt"
				continue
			fi
			[ -f "$golden/$name.$fmt" ] || fail "no golden file $name.$fmt"
			cmp -s "out.$fmt" "$golden/$name.$fmt" ||
				fail "$name ($fmt, $set files) differs from the committed output: $(diff "$golden/$name.$fmt" "out.$fmt" | head -20)"
		done
	done
done || exit 1
[ $make_golden = 1 ] || grep -q '"identity": \[' "$rw/docs/results/ab-thp-2026-11-30/leg-1-madvise.json" ||
	fail "a rewritten file records no identity"
exit 0
