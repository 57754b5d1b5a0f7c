# What the doctor says about the two display-class devices' path on this
# kernel: acs_redirect warns with the exact kernel parameter that clears what
# is left (EXPECT_PARAM, or none: nothing to clear, ok), iommu_mode reads the
# IOMMU as the kernel set it (EXPECT_IOMMU_MODE: translated warns, off is ok).
set -u
. "$(dirname "$0")/lib.host.sh"
[ -s doctor.json ] || fail "no doctor JSON (exit $(cat doctor.rc)): $(cat doctor.err)"
tr -s ' \n' '  ' <doctor.txt >doctor.flat
# finding ID: its object of the JSON on one line
finding() { tr -d '\n' <doctor.json | sed 's/}, *{ *"id"/}\n{"id"/g' | grep "\"id\": *\"$1\"" | head -n 1; }
level() { finding "$1" | sed -n 's/.*"level": *"\([a-z/]*\)".*/\1/p'; }
acs=$(level acs_redirect) mode=$(level iommu_mode)
if [ "$EXPECT_PARAM" = none ]; then
	[ "$acs" = ok ] || fail "acs_redirect is '$acs', want ok: $(grep -A4 acs_redirect doctor.txt)"
	finding acs_redirect | grep -q '"kernel_parameter": *"' && fail "a kernel parameter with nothing to clear: $(finding acs_redirect)"
else
	[ "$acs" = warn ] || fail "acs_redirect is '$acs', want warn: $(grep -A4 acs_redirect doctor.txt)"
	finding acs_redirect | grep -q "\"kernel_parameter\": *\"$EXPECT_PARAM\"" ||
		fail "kernel parameter, want $EXPECT_PARAM: $(finding acs_redirect)"
	grep -q "fix: add $EXPECT_PARAM to the kernel command line" doctor.flat ||
		fail "fix line, want $EXPECT_PARAM: $(grep -A6 acs_redirect doctor.txt)"
fi
grep -q "\"iommu_mode\": *\"$EXPECT_IOMMU_MODE\"" doctor.json || fail "iommu_mode knob, want $EXPECT_IOMMU_MODE: $(grep -o '"iommu_mode": *"[^"]*"' doctor.json | head -n 3)"
case $EXPECT_IOMMU_MODE in
translated) [ "$mode" = warn ] || fail "iommu_mode is '$mode' with a translating IOMMU" ;;
off) [ "$mode" = ok ] || fail "iommu_mode is '$mode' without an IOMMU" ;;
esac
echo "note: acs_redirect $acs${EXPECT_PARAM:+ ($EXPECT_PARAM)}, iommu_mode $mode ($EXPECT_IOMMU_MODE)"
