# reports: a results or comparison file never injects markup into --format
# html: labels, parameters, reasons, argv, host names and metric names are
# escaped (& < > " '); a corrupt file still gives one error line, no page.
. "$top/tests/cli/lib.sh"
d=$top/tests/data
evil='<script>alert(1)</script> & "q" '"'s'"

# no_markup FILE: the page has no raw <script, and the evil text is there escaped
no_markup() {
	! grep -qi '<script' "$1" || fail "$1 has a raw <script: $(grep -i '<script' "$1")"
	grep -q '&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;q&quot; &#39;s&#39;' "$1" ||
		fail "$1 lacks the escaped text"
	[ "$(head -1 "$1")" = '<!DOCTYPE html>' ] && [ "$(tail -1 "$1")" = '</html>' ] || fail "$1 is not a whole page"
}

# The fixture with the evil text in every kind of string the page shows: the
# label, argv, host name, a parameter, a label value, a metric name, a reason.
# cpu.first_touch's touch_rate keeps its two label sets, so the bar chart's
# <text> gets the evil label value too.
sed -e 's|"label": "stock"|"label": "EVIL"|' \
	-e 's|"probe", "cpu.first_touch"|"probe", "EVIL"|' \
	-e 's|"hostname": "fixture"|"hostname": "EVIL"|' \
	-e 's|"threads": "1"}|"threads": "EVIL"}|' \
	-e 's|"pages": "thp", "touch": "write"}|"pages": "EVIL", "touch": "write"}|' \
	-e 's|"name": "copy_bw"|"name": "EVIL"|' \
	-e 's|"name": "cpu.stream", "status": "ok", "reason": null|"name": "cpu.stream", "status": "fail", "reason": "EVIL"|' \
	"$d/cmp-aa-1.json" >tmpl.json
n=$(grep -c EVIL tmpl.json)
[ "$n" -ge 7 ] || fail "only $n substitutions in the fixture copy: the fixture changed"
# JSON string form of the evil text: only the double quotes need a backslash.
# Replaced by awk through the environment: sed and awk -v would read & and \.
EV=$(printf '%s' "$evil" | sed 's/"/\\"/g') awk '{
	out = ""
	while ((i = index($0, "EVIL")) > 0) {
		out = out substr($0, 1, i - 1) ENVIRON["EV"]
		$0 = substr($0, i + 4)
	}
	print out $0
}' tmpl.json >evil.json
"$MEMPATH" report evil.json --format csv >/dev/null || fail "the evil fixture does not read: $(cat evil.json)"
"$MEMPATH" report evil.json --format html >evil.html || fail "html failed"
no_markup evil.html
for where in '<title>mempath results: &lt;script' '<li>host: &lt;script' '<code>mempath probe &lt;script' \
	'threads=&lt;script' '<td>&lt;script' '<p>&lt;script' 'pages=&lt;script' '<text [^>]*>pages=&lt;script'; do
	grep -q "$where" evil.html || fail "not escaped where expected: $where"
done
[ "$(grep -c '<svg ' evil.html)" -eq "$(grep -c '</svg>' evil.html)" ] || fail "unbalanced svg"

# the same through a comparison: leg names, keys, reasons, the controls line
cp evil.json a.json
sed -e 's|"label": "<script>|"label": "B <script>|' \
	-e 's|"start_time": "\([^"]*\)"|"start_time": "\1 B"|' evil.json >b.json
# A again: another run (one file twice, or a copy, is one run: refused)
sed 's|"start_time": "\([^"]*\)"|"start_time": "\1 again"|' evil.json >a2.json
cmp -s a.json a2.json && fail "the fixture changed: no start_time"
"$MEMPATH" compare a.json b.json a2.json --control '*,pages=<*' --format html >cmp.html || fail "compare html failed"
no_markup cmp.html
grep -q '<th>&lt;script' cmp.html || fail "leg name not escaped"
grep -q '<li>control: <code>\*,pages=&lt;\*</code></li>' cmp.html || fail "control pattern not escaped"
grep -q '<text [^>]*>cpu.first_touch touch_rate pages=&lt;script' cmp.html || fail "forest plot label not escaped"
"$MEMPATH" compare a.json b.json a2.json --format json -o c.json || fail "compare json failed"
"$MEMPATH" report c.json --format html >rc.html || fail "report of the comparison failed"
no_markup rc.html

# corrupt files: one error line, non-zero exit, no partial page
for f in "$d/corrupt-truncated.json" "$d/corrupt-label-not-string.json" "$d/corrupt-compare-verdict.json" \
	"$d/corrupt-compare-truncated.json"; do
	expect_fail 2 "$MEMPATH" report "$f" --format html
	[ ! -s out.txt ] || fail "output from corrupt $f: $(head -3 out.txt)"
	grep -Fq "'$f'" err.txt || fail "error does not name the file: $(cat err.txt)"
done
exit 0
