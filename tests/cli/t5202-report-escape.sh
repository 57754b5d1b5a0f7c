# reports: text from a results file never reaches a terminal as control
# characters (an escape sequence that retitles the window or clears the
# screen, a newline that forges a line), never becomes Markdown markup (HTML,
# a link or image, a line of its own), and never starts a CSV cell a
# spreadsheet would run as a formula. report, compare and doctor --from.
# test: sanitizers (C paths the unit tests miss: tools/sanitize-pick.sh)
. "$top/tests/cli/lib.sh"
d=$top/tests/data
# ESC ] 0 ; PWNED BEL ESC [ 2 J, a newline and a forged line, in JSON form.
term='\u001b]0;PWNED\u0007\u001b[2J\nFORGED'
md='<script>x</script> ![i](http://evil/t.png)\n# FORGED'
csv='=HYPERLINK(\"http://evil\")'
mk() { # mk OUT TEXT: the A/A fixture with TEXT in the label, host name, a label value, a reason
	set -- "$1" "$(printf '%s' "$2" | sed 's/\\/\\\\/g')"
	sed -e "s|\"label\": \"stock\"|\"label\": \"$2\"|" \
		-e "s|\"hostname\": \"fixture\"|\"hostname\": \"$2\"|" \
		-e "s|\"pages\": \"thp\", \"touch\": \"write\"}|\"pages\": \"$2\", \"touch\": \"write\"}|" \
		-e "s|\"name\": \"cpu.stream\", \"status\": \"ok\", \"reason\": null|\"name\": \"cpu.stream\", \"status\": \"fail\", \"reason\": \"$2\"|" \
		"$d/cmp-aa-1.json" >"$1"
	[ "$(grep -c 'PWNED\|script\|HYPERLINK' "$1")" -ge 4 ] || fail "the fixture changed: $1"
}
mk t.json "$term"
mk m.json "$md"
mk c.json "$csv"
sed -i 's|"name": "copy_bw"|"name": "=SUM(A1)"|' c.json
grep -q '=SUM' c.json || fail "the fixture changed: no copy_bw metric"
esc=$(printf '\033')
bel=$(printf '\007')
no_ctl() { # no_ctl FILE: no ESC or BEL byte, no line starting with FORGED
	! grep -q "[$esc$bel]" "$1" || fail "$1 holds a raw control character"
	! grep -q '^FORGED' "$1" || fail "$1 has a forged line"
	grep -q 'PWNED' "$1" || fail "$1 lost the text instead of escaping it"
}
"$MEMPATH" report t.json >r.txt || fail "report exited $?"
no_ctl r.txt
grep -q '\\x1b\]0;PWNED\\x07\\x1b\[2J\\nFORGED' r.txt || fail "escaped form not shown: $(grep PWNED r.txt | head -2)"
"$MEMPATH" compare t.json "$d/cmp-aa-2.json" "$d/cmp-aa-3.json" >c.txt || fail "compare exited $?"
no_ctl c.txt
"$MEMPATH" doctor --from t.json >dr.txt
[ $? -le 1 ] || fail "doctor --from exited badly"
! grep -q "[$esc$bel]" dr.txt || fail "doctor prints a raw control character"
! grep -q '^FORGED' dr.txt || fail "doctor prints a forged line"

for f in "report m.json --format md" "compare m.json $d/cmp-aa-2.json $d/cmp-aa-3.json --format md" \
	"doctor --from m.json --format md"; do
	# shellcheck disable=SC2086
	"$MEMPATH" $f >out.md
	[ $? -le 1 ] || fail "$f exited badly"
	! grep -q '<script' out.md || fail "$f: raw HTML in Markdown: $(grep '<script' out.md)"
	! grep -q '!\[i\](http' out.md || fail "$f: an image link in Markdown"
	! grep -q '^# FORGED' out.md || fail "$f: a forged heading"
done
grep -q '&lt;script' out.md || fail "the doctor's Markdown lost the text"

"$MEMPATH" report c.json --format csv >out.csv || fail "report csv exited $?"
! grep -q ',=SUM' out.csv || fail "a formula starts a CSV cell: $(grep SUM out.csv | head -1)"
grep -q "^cpu.stream,[a-z]*,\"'=SUM(A1)\"," out.csv || fail "the formula cell is not neutralised: $(grep SUM out.csv | head -1)"
exit 0
