# history trend --format html: the kept medians of one metric as one line a
# label set with its p5-p95 band (docs/img/history-trend.png), then a table
# with a row a point; history list --format html is its table; a label
# from a file reaches the page escaped.
. "$top/tests/cli/lib.sh"
export MEMPATH_HISTORY=$PWD/h.db
r=$top/docs/results
sed 's/"label": *"vm-quick"/"label": "<i>q<\/i>"/' "$r/vm-quick-2026-11-30.json" >q.json
grep -q '"label": "<i>q</i>"' q.json || fail "planting the label"
"$MEMPATH" history add q.json "$r/vm-full-2026-11-30.json" >add.txt || fail "history add: $(cat add.txt)"
"$MEMPATH" history trend cpu.stream:bandwidth,kernel=read --format html >t.html 2>t.err ||
	fail "history trend --format html: $(cat t.err)"
grep -q '<title>mempath history trend: cpu.stream bandwidth</title>' t.html || fail "title: $(head -n 5 t.html)"
[ "$(grep -c '<svg' t.html)" -eq 1 ] || fail "not one plot"
grep -q '<b>cpu.stream bandwidth over the runs kept</b>' t.html || fail "no caption"
"$MEMPATH" history trend cpu.stream:bandwidth,kernel=read >t.txt || fail "history trend"
rows=$(grep -c '^<tr><td class="n">' t.html)
[ "$rows" -eq 5 ] || fail "$rows point rows, 5 medians kept: $(cat t.txt)"
grep -q '&lt;i&gt;q&lt;/i&gt;' t.html || fail "the label is not in the table, escaped"
grep -q '<i>q</i>' t.html && fail "a label reached the page as markup"
"$MEMPATH" history list --format html >l.html || fail "history list --format html"
[ "$(grep -c '^<tr><td class="n">' l.html)" -eq 2 ] || fail "list: not a row a run"
exit 0
