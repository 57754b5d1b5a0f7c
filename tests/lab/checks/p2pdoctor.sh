# The doctor's peer-to-peer rules on this machine's PCIe tree and kernel.
mempath doctor --format json -o doctor.json >doctor.err 2>&1
echo $? >doctor.rc
mempath doctor >doctor.txt 2>&1
exit 0
