# The doctor read this kernel: the emulator rule warns, the NUMA rules saw
# every node.
set -u
. "$(dirname "$0")/lib.host.sh"
set -- $LAB_NODES
[ -s doctor.json ] || fail "no JSON: $(cat doctor.err)"
level() { tr -d '\n' <doctor.json | sed 's/},/}\n/g' | grep "\"id\": *\"$1\"" | sed -n 's/.*"level": *"\([a-z/]*\)".*/\1/p'; }
[ "$(level virt)" = warn ] || fail "virt is '$(level virt)', want warn: $(grep -A3 virt doctor.txt)"
grep -q "under an emulator (QEMU TCG" doctor.txt || fail "no emulator evidence: $(grep -A3 virt doctor.txt)"
[ "$(level zone_reclaim)" = ok ] || fail "zone_reclaim is '$(level zone_reclaim)'"
grep -q "vm.zone_reclaim_mode=0 on $# nodes" doctor.txt || fail "zone_reclaim did not see $# nodes: $(grep -A2 zone_reclaim doctor.txt)"
echo "note: virt warn, NUMA rules on $# nodes"
