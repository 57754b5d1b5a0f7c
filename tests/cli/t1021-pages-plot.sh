# report: a page-size sweep (pages=... with sizes) is drawn as a line
# against the page size on the HTML page, hugetlb a line of its own, thp and
# default (no size of their own) left out of the plot, not of the table.
# The sized rows are copies of the 4k row relabelled (no knob is changed:
# tests beside this one read them).
. "$top/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 not installed (edits the results file)"
"$MEMPATH" probe cpu.first_touch pages=thp,4k size=8M touch=write --reps 2 --warmups 0 \
	-o ft.json >ft.txt 2>&1 || fail "the probe failed: $(tail -n 3 ft.txt)"
python3 - <<'PY' || fail "could not edit the file"
import json, copy
d = json.load(open("ft.json"))
p = d["probes"][0]
add = []
for m in p["metrics"]:
    if m["labels"].get("pages") == "4k":
        for size in ("64k", "2m", "hugetlb-2m", "hugetlb-1g"):
            c = copy.deepcopy(m)
            c["labels"]["pages"] = size
            add.append(c)
p["metrics"] += add
json.dump(d, open("ft.json", "w"))
PY
"$MEMPATH" report ft.json --format html >ft.html || fail "report --format html failed"
grep -q "page size (bytes" ft.html || fail "no plot against the page size"
grep -q "hugetlb</text>" ft.html || grep -q ",hugetlb" ft.html || fail "hugetlb is not a line of its own"
grep -q "pages=thp" ft.html || fail "the thp row left the table"
