# reports: the terminal table keeps its columns whatever the labels: a label
# far longer than the column is cut with "..." and every row's numbers start
# where the header's do; a label in UTF-8 counts its characters, not bytes;
# the comparison table does the same with a long metric key
. "$top/tests/cli/lib.sh"
d=$top/tests/data
long=$(printf 'k%.0s' $(seq 1 120))
sed -e "s|\"pages\": \"thp\", \"touch\": \"write\"}|\"pages\": \"$long\", \"touch\": \"write\"}|" \
	-e "s|\"pages\": \"4k\", \"touch\": \"write\", \"streams\": \"8\"}|\"pages\": \"déjà-vu\", \"touch\": \"write\", \"streams\": \"8\"}|" \
	"$d/cmp-aa-1.json" >long.json
grep -q "$long" long.json && grep -q 'déjà' long.json || fail "the fixture changed"
"$MEMPATH" report long.json >t.txt || fail "report: $(cat t.txt)"
grep -q 'kkk\.\.\. ' t.txt || fail "a long label is not cut with '...': $(cat t.txt)"
# In each probe block, the column where "median" ends in the header is where
# every row's median ends (characters, not bytes: awk counts what it is given,
# so the check runs on a copy with each UTF-8 character as one byte).
LC_ALL=C sed 's/[\xc0-\xf7][\x80-\xbf]*/_/g' t.txt | awk '
	/^   metric / { end = index($0, "median") + 5; next }
	/^== / { end = 0 }
	end && /^   [a-z]/ {
		# the median is the first number after the labels column
		if (substr($0, end, 1) !~ /[0-9-]/ || substr($0, end + 1, 1) != " ") {
			print "misaligned: " $0; bad = 1 }
	}
	END { exit bad }' || fail "columns broken: $(cat t.txt)"
grep -q 'déjà-vu' t.txt || fail "UTF-8 label lost: $(cat t.txt)"
# compare: a key longer than the metric column is cut, the other columns stay
sed "s|\"pages\": \"thp\", \"touch\": \"write\"}|\"pages\": \"$long\", \"touch\": \"write\"}|" \
	"$d/cmp-aa-2.json" >long2.json
"$MEMPATH" compare long.json long2.json >c.txt || fail "compare: $(cat c.txt)"
awk '/^metric / { w = index($0, " stock") } END { exit !w }' c.txt || fail "no header: $(cat c.txt)"
n=$(awk '/^metric / { hdr = length($0) - length("verdict") }
	/^cpu\./ { if (index($0, "kkk...")) { print index($0, "too few") ; exit } }' c.txt)
h=$(awk '/^metric / { print index($0, "verdict"); exit }' c.txt)
[ -n "$n" ] && [ "$n" -eq "$h" ] || fail "the cut key moved the verdict column ($n, header $h): $(cat c.txt)"
exit 0
