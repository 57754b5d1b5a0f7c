# the one escaping rule (docs/design.md §9.3), every entry point: hostile
# bytes (an ANSI escape, BEL, a C1 CSI, the bidi override U+202E and
# isolate U+2066, a byte that is no UTF-8, a '|', <script>, a newline that
# forges a line) given through argv, a results file, an ab directory's legs
# (title, label, host, CPU model, command line) and a bisection's steps.tsv
# reach no writer (term, md, html, csv, openmetrics; json stays valid JSON
# and holds no raw control), no error line and no progress line raw; in
# Markdown no tag outside a code block and no unescaped '|' in a table row.
# Tables: command | formats (writers); exit | command (error lines).
. "$top/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 not installed (writes the fixtures)"
d="$top/tests/data"
esc=$(printf '\033') bel=$(printf '\007') csi=$(printf '\302\233')
rlo=$(printf '\342\200\256') lri=$(printf '\342\201\246') ff=$(printf '\377')
text=$(printf 'E\033[2J\007\302\233\342\200\256\342\201\246P|Q<script>alert(1)</script>\nFORGED')
# clean FILE WHAT FORMAT: no raw byte of the rule's, per format its markup
clean() {
	if LC_ALL=C grep -q -e "$esc" -e "$bel" -e "$csi" -e "$rlo" -e "$lri" -e "$ff" "$1"; then
		fail "$2: a raw control, bidi or binary byte: $(LC_ALL=C grep -a -m1 -e "$esc" -e "$bel" -e "$csi" -e "$rlo" -e "$lri" -e "$ff" "$1" | cat -v)"
	fi
	! grep -q '^FORGED' "$1" || fail "$2: a forged line"
	case $3 in
	md)
		# a fenced code block (findings' command line) shows markup as
		# typed: it cannot end early, each line of it being escaped whole
		awk '/^```/ { f = !f; next } !f' "$1" >"$1.prose"
		! grep -q '<script' "$1.prose" || fail "$2: raw HTML in Markdown: $(grep -m1 '<script' "$1.prose")"
		! grep '^|' "$1" | grep -q 'P|Q' || fail "$2: a '|' splits a cell: $(grep '^|' "$1" | grep -m1 'P|Q')"
		;;
	html) ! grep -q '<script' "$1" || fail "$2: raw HTML: $(grep -m1 '<script' "$1")" ;;
	json) python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$1" 2>/dev/null ||
		fail "$2: not valid JSON: $(head -c 300 "$1")" ;;
	esac
}
# the fixtures: a results file, a second leg, an ab directory of real legs
python3 "$d/escape/inject.py" "$d/cmp-aa-1.json" e.json "$text" || fail "the fixture could not be made"
python3 "$d/escape/inject.py" "$d/cmp-aa-2.json" e2.json "$text" || fail "the fixture could not be made"
"$MEMPATH" ab --title "$text" --label-b "$text" --a true --b true -o ab -- \
	wrap -n 6 --parse none -- true >ab.out 2>ab.err
rc=$?
[ $rc -le 3 ] || fail "ab exit $rc: $(tail -3 ab.err)"
for f in ab.out ab.err ab/compare.md ab/leg-*setup.log; do clean "$f" "ab --label-b: $f" term; done
grep -q 'E\\x1b\[2J\\x07\\u009b\\u202e\\u2066P|Q' ab.err || fail "ab's progress lines lack the label as text: $(cat ab.err)"
python3 - "$text" ab/leg-*.json <<'PY' || fail "the legs' host could not be made hostile"
import json, sys
for f in sys.argv[2:]:
    j = json.load(open(f))
    j["host"]["hostname"] = "H " + sys.argv[1]
    j["host"]["cpu"]["model"] = "C " + sys.argv[1]
    json.dump(j, open(f, "w"))
PY
# a bisection whose step is named so, and a steps.tsv with binary bytes
"$MEMPATH" wrap -o good.json -n 6 --parse none -- true >/dev/null 2>&1 || fail "wrap good"
"$MEMPATH" wrap -o bad.json -n 6 --parse none -- sleep 0.02 >/dev/null 2>&1 || fail "wrap bad"
"$MEMPATH" bisect --good good.json --bad bad.json --metric 'work.wrap:wall_time' \
	--step "$text$ff" -o bis -- wrap -n 6 --parse none -- true >bis.out 2>bis.err
rc=$?
[ $rc -le 1 ] || [ $rc -eq 125 ] || fail "bisect exit $rc: $(tail -3 bis.err)"
for f in bis.out bis.err bis/steps.tsv; do clean "$f" "bisect --step: $f" term; done
clean bis/bisect.md "bisect --step: bisect.md" md
grep -q '^bisect: step 1 (E\\x1b\[2J' bis.err || fail "bisect's lines lack the step as text: $(cat bis.err)"
mkdir bin && printf '1\tv\001\033[2J\377\302\233|x<script>\tgood\t0\twhy\342\200\256\n' >bin/steps.tsv
while IFS='|' read -r cmd formats; do
	for f in $formats; do
		if [ "$f" = - ]; then
			# shellcheck disable=SC2086 # the command is words
			"$MEMPATH" $cmd >out.txt 2>err.txt
			f=md
		else
			# shellcheck disable=SC2086
			"$MEMPATH" $cmd --format $f >out.txt 2>err.txt
		fi
		clean out.txt "$cmd --format $f" "$f"
		clean err.txt "$cmd --format $f (stderr)" term
	done
done <<EOF
report e.json|term md csv html json openmetrics
compare e.json e2.json|term md html json
findings ab|md html
doctor --from e.json|term md json
bisect --report bis|-
bisect --report bin|-
EOF
grep -q '| 1 | v\\x01\\x1b\[2J\\xff\\u009b\\|x&lt;script> | good | 0 | why\\u202e |' out.txt ||
	fail "bisect --report of a binary steps.tsv: $(cat out.txt)"
"$MEMPATH" findings ab -o f.md || fail "findings -o"
clean f.md "findings -o" md
grep -q '^Machine: H E\\x1b\[2J.*: C E\\x1b\[2J' f.md || fail "findings' machine line: $(grep Machine f.md)"
# error lines that echo a user's word: each one line, exit 2, escaped
while IFS='|' read -r want cmd; do
	eval "set -- $cmd"
	expect_fail "$want" "$MEMPATH" "$@"
	clean err.txt "error line of: $cmd" term
	grep -q 'E\\x1b\[2J\|x\\xffy' err.txt || fail "$cmd: the word is not shown as text: $(cat -v err.txt)"
done <<'EOF'
2|"$text"
2|"x${ff}y"
2|help "cpu.$text"
2|probe "cpu.$text"
2|probe cpu.stream "size=$text"
2|report --format "$text" e.json
2|compare --format "$text" e.json e2.json
2|findings ab --format "$text"
2|report "--$text" e.json
EOF
# a command that cannot run: the child's error line
"$MEMPATH" wrap -n 1 -o w.json -- "./$text" >out.txt 2>err.txt
clean out.txt "wrap of a command named so" term
clean err.txt "wrap of a command named so (stderr)" term
grep -q "cannot run './E\\\\x1b\[2J" err.txt || fail "wrap: the command's name is not shown as text: $(cat -v err.txt)"
exit 0
