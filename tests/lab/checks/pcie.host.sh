# The root ports' ACSCtl are what the kernel command line asks for
# (EXPECT_ACS: DEV=VALUE ...), the two display-class endpoints are there, and
# their IOMMU groups are of the type expected (EXPECT_GROUPS; none: no groups).
set -u
. "$(dirname "$0")/lib.host.sh"
[ -s devices ] || fail "no devices recorded: $(cat log)"
n=$(grep -c ' class=0x03' devices)
[ "$n" = 2 ] || fail "$n display-class devices, want 2: $(cat devices)"
for e in $EXPECT_ACS; do
	dev=${e%%=*} want=${e#*=}
	got=$(awk -v d="$dev" '$1 == d { sub("acsctl=", "", $3); print $3 }' devices)
	[ "$got" = "$want" ] || fail "$dev ACSCtl $got, want $want ($(cat cmdline)): $(grep "^$dev" devices)"
done
if [ "$EXPECT_GROUPS" = none ]; then
	[ "$(cat groups)" = 0 ] || fail "$(cat groups) IOMMU groups without an IOMMU"
else
	grep ' class=0x03' devices | while read -r dev cls acs grp typ; do
		[ "$typ" = "type=$EXPECT_GROUPS" ] || { echo "$dev: $grp $typ, want type=$EXPECT_GROUPS"; exit 1; }
	done || fail "IOMMU group types: $(grep ' class=0x03' devices)"
fi
echo "note: ACSCtl $EXPECT_ACS; groups $EXPECT_GROUPS"
