# Shared by the host halves of the checks (sourced; not copied to the guest).
# fail MESSAGE: the check fails, saying why.
fail() {
	echo "$(basename "$0" .host.sh): $*"
	exit 1
}
# csv RESULTS OUT: a results file as report's CSV, each labels field's commas
# made ';' and its quotes dropped, so fields split at commas; fails when the
# file is rejected.
csv() {
	"$MEMPATH" report "$1" --format csv >"$2.raw" || fail "$1 rejected by report"
	sed -e ':a' -e 's/^\([^"]*"[^",]*\),/\1;/' -e 'ta' -e 's/"//g' "$2.raw" >"$2"
}
# median CSV METRIC LABELS: that cell's median, empty when it is absent.
median() { awk -F, -v m="$2" -v l="$3" '$3 == m && $4 == l { print $8 }' "$1"; }
