# every writer escapes text from a file for its format: control characters
# (an ANSI escape, a BEL, a newline that forges a line) never reach the
# output raw, and HTML or a link never becomes Markdown markup; in the
# labels, host, metric names, label values, knobs and reasons of a results
# file, in a reference file's texts, and in a file name in an error line.
# Table: command | format list.
# test: sanitizers (C paths the unit tests miss: tools/sanitize-pick.sh)
. "$top/tests/cli/lib.sh"
d="$top/tests/data"
esc=$(printf '\033')
bel=$(printf '\007')
text=$(printf '\033[31mRED\033]0;T\007 <img src=x onerror=y> [l](http://e)\nFORGED')
python3 "$d/escape/inject.py" "$d/cmp-aa-1.json" e.json "$text" || fail "the fixture could not be made"
grep -q 'RED' e.json || fail "the fixture changed"
# a reference whose texts hold the same
mkdir refs
python3 - "$text" "$top/data/vm-epyc-2.json" <<'PY' || fail "the reference could not be made"
import json, sys
t = sys.argv[1]
j = json.load(open(sys.argv[2]))
j["kind"] = "K " + t
j["about"] = "A " + t
j["match"] = {"cpu_model": "Fixture CPU"}
for v in j["values"]:
    v["path"], v["means"], v["source"] = "P " + t, "M " + t, "S " + t
json.dump(j, open("refs/x.json", "w"))
PY
clean() { # clean FILE WHAT FORMAT
	! grep -q "[$esc$bel]" "$1" || fail "$2: a raw control character: $(grep -a -m1 "[$esc$bel]" "$1" | cat -v)"
	! grep -q '^FORGED' "$1" || fail "$2: a forged line"
	if [ "$3" = md ]; then
		! grep -q '<img' "$1" || fail "$2: raw HTML in Markdown: $(grep -m1 '<img' "$1")"
		! grep -q '\](http' "$1" || fail "$2: a link in Markdown: $(grep -m1 '](http' "$1")"
	fi
	if [ "$3" = html ]; then
		! grep -q '<img' "$1" || fail "$2: raw HTML: $(grep -m1 '<img' "$1")"
	fi
}
while IFS='|' read -r cmd formats; do
	for f in $formats; do
		# shellcheck disable=SC2086
		"$MEMPATH" $cmd --format $f >out.txt 2>err.txt
		clean out.txt "$cmd --format $f" $f
		clean err.txt "$cmd --format $f (stderr)" term
	done
done <<EOF
report e.json|term md csv html json openmetrics
compare e.json $d/cmp-aa-2.json|term md json html
compare $d/cmp-aa-2.json e.json $d/cmp-aa-3.json|term md
fleet merge e.json $d/cmp-aa-2.json -o f1.json|term md json csv html
doctor --from e.json|term md json
check e.json --refs refs|term md json
check $d/cmp-aa-1.json --refs refs|term md json
EOF
"$MEMPATH" compare e.json "$d/cmp-aa-2.json" -o c.json --format md >/dev/null 2>&1
for f in term md html csv; do
	"$MEMPATH" report c.json --format $f >out.txt 2>err.txt
	clean out.txt "report of a comparison --format $f" $f
done
# a file name with an escape sequence, in an error line
bad=$(printf 'x\033[2Jy')
printf '{' >"$bad.json"
for cmd in "report" "compare $d/cmp-aa-1.json" "doctor --from"; do
	# shellcheck disable=SC2086
	expect_fail 2 "$MEMPATH" $cmd "$bad.json"
	clean err.txt "$cmd with a name holding ESC" term
	grep -q 'x\\x1b\[2Jy' err.txt || fail "$cmd: the name is not shown as text: $(cat -v err.txt)"
done
exit 0
