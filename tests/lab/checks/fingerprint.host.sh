# The fingerprint says emulated (QEMU TCG); every report says its timings are
# not memory figures; check refuses to judge it, here and on the host;
# a fleet puts it apart from this machine.
set -u
. "$(dirname "$0")/lib.host.sh"
j=$(tr -d ' \n' <sysinfo.json)
echo "$j" | grep -q '"virt":{"kind":"emulator","name":"QEMUTCG"' || fail "virt: $(echo "$j" | grep -o '"virt":{[^}]*}')"
"$MEMPATH" report wake.json | grep -q '^trap (doctor): virt: under an emulator (QEMU TCG' || fail "term report says nothing"
"$MEMPATH" report wake.json --format md | grep -q '^- trap (doctor): virt: under an emulator' || fail "md report says nothing"
[ "$(cat check.rc)" = 2 ] || fail "check in the guest exited $(cat check.rc): $(cat check.txt)"
grep -q 'ran under an emulator (QEMU TCG): its timings are not memory figures' check.txt || fail "check: $(cat check.txt)"
"$MEMPATH" check wake.json >hcheck.txt 2>&1
[ $? = 2 ] && grep -q 'not memory figures' hcheck.txt || fail "check on the host: $(cat hcheck.txt)"
echo "note: $(echo "$j" | grep -o '"evidence":"[^"]*"' | head -n 1)"
